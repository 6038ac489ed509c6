// Lists every function, method and arrow in src/core longer than the limit (default 80 lines): the size rule of #22.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ?? 'src/core';
const limit = Number(process.argv[3] ?? 80);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

const long = [];
for (const path of files(root)) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
      if (end - start + 1 > limit) long.push(`${relative('.', path)}:${start}-${end} ${name} ${end - start + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(long.length ? long.join('\n') : `no function in ${root} over ${limit} lines`);
process.exitCode = long.length ? 1 : 0;
