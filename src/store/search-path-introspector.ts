import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema in the database and calls
 * has_schema_privilege(name) on each: when another session drops a schema while that query runs,
 * the name no longer resolves and the query fails with 3F000 ("schema ... does not exist"), so
 * migrations fail because of a schema they do not use. This one reads the catalogs by oid only,
 * and only the schemas on this connection's search_path: where the store's tables live.
 */
class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace order by nspname`.execute(this.db);
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      schema: string;
      table: string;
      kind: string;
      column: string;
      dataType: string;
      notNull: boolean;
      hasDefault: boolean;
    }>`
      select ns.nspname as schema, c.relname as table, c.relkind as kind, a.attname as column,
             t.typname as "dataType", a.attnotnull as "notNull", a.atthasdef as "hasDefault"
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type t on t.oid = a.atttypid
       where ns.nspname = any(current_schemas(false))
         and c.relkind in ('r', 'v', 'p')
         and a.attnum >= 0 and not a.attisdropped
       order by ns.nspname, c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && MIGRATION_TABLES.has(r.table)) continue;
      const key = `${r.schema}.${r.table}`;
      let table = tables.get(key);
      if (!table) {
        table = { name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: r.column,
        dataType: r.dataType,
        isNullable: !r.notNull,
        hasDefaultValue: r.hasDefault,
        isAutoIncrementing: false,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect with the search-path introspector (used by the migrator). */
export class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}
