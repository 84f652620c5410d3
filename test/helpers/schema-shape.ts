import type { Kysely } from 'kysely';

/** A column as the previous release relies on it. */
interface ColumnShape {
  readonly type: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
}

/** Tables and their columns, as the store's introspector sees them. */
export type SchemaShape = ReadonlyMap<string, ReadonlyMap<string, ColumnShape>>;

// biome-ignore lint/suspicious/noExplicitAny: any schema, whatever this code's Database type says.
export async function schemaShape(db: Kysely<any>): Promise<SchemaShape> {
  const shape = new Map<string, Map<string, ColumnShape>>();
  for (const table of await db.introspection.getTables()) {
    const columns = new Map<string, ColumnShape>();
    for (const c of table.columns) {
      columns.set(c.name, {
        type: c.dataType.toLowerCase(),
        nullable: c.isNullable,
        hasDefault: c.hasDefaultValue,
      });
    }
    shape.set(table.name, columns);
  }
  return shape;
}

/**
 * What a step from `before` to `after` does that a release serving `before` cannot live with
 * (docs/operations.md, "Health, readiness and migrations"): a table or column it reads gone
 * (dropped, or renamed), a column's type changed, or a column its inserts do not fill made
 * mandatory. Empty for an expansion: new tables, new nullable or defaulted columns, new indexes.
 */
export function contractingChanges(before: SchemaShape, after: SchemaShape): string[] {
  const changes: string[] = [];
  for (const [table, columns] of before) {
    const now = after.get(table);
    if (!now) {
      changes.push(`drops table ${table}`);
      continue;
    }
    for (const [name, was] of columns) {
      const is = now.get(name);
      if (!is) changes.push(`drops column ${table}.${name}`);
      else if (is.type !== was.type)
        changes.push(`changes the type of ${table}.${name} (${was.type} to ${is.type})`);
      else if (was.nullable && !is.nullable && !is.hasDefault)
        changes.push(`makes ${table}.${name} not null`);
    }
    for (const [name, is] of now) {
      if (!columns.has(name) && !is.nullable && !is.hasDefault) {
        changes.push(`adds ${table}.${name} not null without a default`);
      }
    }
  }
  return changes;
}
