import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/**
 * The size rule of docs/architecture.md (Conventions): a source file holds one job in at most 300
 * lines and a function (a factory's closure included) at most 80, so a reader sees a whole step at
 * once and a change to one rule touches one small place.
 */
const SRC = resolve('src');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Every function in a file longer than the limit, as `file:line name (N lines)`. */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) {
        found.push(
          `${relative(SRC, file)}:${first + 1} ${nameOf(node as ts.FunctionLikeDeclaration)} (${lines} lines)`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('code shape', () => {
  const files = sourceFiles(SRC);

  it(`keeps every source file within ${MAX_FILE_LINES} lines`, () => {
    const long = files.flatMap((file) => {
      const lines = lineCount(readFileSync(file, 'utf8'));
      return lines > MAX_FILE_LINES ? [`${relative(SRC, file)} (${lines} lines)`] : [];
    });
    assert.deepEqual(long, []);
  });

  it(`keeps every function within ${MAX_FUNCTION_LINES} lines`, () => {
    assert.deepEqual(files.flatMap(longFunctions), []);
  });
});
