// Resolve options (webpack's shape, which dependency-cruiser reads) for the import-cycle check.
// dependency-cruiser takes one tsconfig and resolves its `paths` against the working directory,
// while each workspace package declares its own aliases (apps/web: `@/*` -> `./src/*`) relative to
// itself; so the aliases are read from every tracked tsconfig and made absolute here.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import ts from 'typescript';

const root = path.dirname(import.meta.dirname);
const tsconfigs = execFileSync('git', ['ls-files', '--', '*tsconfig.json'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

const alias = {};
for (const file of tsconfigs) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, file),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const { paths, pathsBasePath } = parsed?.options ?? {};
  for (const [pattern, [target] = []] of Object.entries(paths ?? {})) {
    if (!pattern.endsWith('/*') || !target?.endsWith('/*')) {
      throw new Error(`${file}: only "prefix/*" path aliases are supported, found "${pattern}"`);
    }
    const name = pattern.slice(0, -2);
    const to = path.resolve(String(pathsBasePath), target.slice(0, -2));
    // The cruise resolves the whole workspace at once, so one alias must mean one folder.
    if (alias[name] !== undefined && alias[name] !== to) {
      throw new Error(`path alias "${pattern}" points at both ${alias[name]} and ${to}`);
    }
    alias[name] = to;
  }
}

export default { resolve: { alias } };
