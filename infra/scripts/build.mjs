// Builds the `tributary` command once into infra/dist/ (run by `npm ci` through the root `prepare`
// script, or `npm run build`): the TypeScript of the workspaces bundled into ESM chunks, npm packages
// left to Node. Compiling at every run cost seconds per command (docs/cli.md#speed).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const INFRA = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(INFRA, 'dist');

/** npm packages and Node's built-ins stay imports; only our own workspaces are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@tributary/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * `import.meta.url` keeps meaning the source file's own address, so what a module finds beside itself
 * (migrations, web assets, package.json, a package resolved from there) is where it is in the sources.
 * Relative to the chunk, so the checkout may move after the build.
 */
const importMetaAtSource = {
  name: 'import-meta-at-source',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(OUT, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

await rm(OUT, { recursive: true, force: true });
await build({
  entryPoints: { tributary: resolve(INFRA, 'src/cli/tributary.ts') },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [externalPackages, importMetaAtSource],
});
