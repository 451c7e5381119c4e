// The lint rules that hold the layering (eslint.config.js): each deliberate bad import below must be
// reported by the rule named beside it, and a good one must not. Paths only need to resolve, so the
// fixtures import files that every layout of the tree keeps (see fixtureTargets).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// Created after the fixtures exist: the config lists the PWA feature folders when it loads.
let eslint: ESLint;

// Throwaway modules written inside the tree (so the real config and resolver apply), removed after.
const scratch: string[] = [];
function scratchDir(under: string): string {
  mkdirSync(join(root, under), { recursive: true });
  const dir = mkdtempSync(join(root, under, 'lint-fixture-'));
  scratch.push(dir);
  return dir;
}
function write(dir: string, name: string, code: string): string {
  const file = join(dir, name);
  writeFileSync(file, code);
  return file;
}

/** Rule ids reported for `code` as if it were the file at `filePath` (relative to the repo root). */
async function rulesFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

let featureA: string;
let featureB: string;
let apiFeature: string;
let pwaData: string;

beforeAll(() => {
  // Two PWA "features" and one API feature made up for the test, each with a module to import.
  featureA = scratchDir('pwa/src/features');
  featureB = scratchDir('pwa/src/features');
  write(featureA, 'screen.tsx', 'export const Screen = () => null;\n');
  write(featureB, 'screen.tsx', 'export const Screen = () => null;\n');
  apiFeature = scratchDir('api/src/features');
  write(apiFeature, 'thing.service.ts', 'export const makeThing = () => 1;\n');
  write(apiFeature, 'thing.routes.ts', 'export const thingRoutes = 1;\n');
  write(apiFeature, 'thing.repository.ts', 'export const findThing = () => 1;\n');
  pwaData = scratchDir('pwa/src/data');
  write(pwaData, 'things.ts', 'export const fetchThings = () => [];\n');
  eslint = new ESLint({ cwd: root });
});

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const rel = (file: string) => relative(root, file);
const spec = (from: string, to: string) => {
  const r = relative(join(from, '..'), to);
  return r.startsWith('.') ? r : `./${r}`;
};

describe('layering rules (eslint.config.js)', () => {
  it('reports an API lib module importing a feature', async () => {
    const file = 'api/src/lib/lint-fixture.ts';
    const target = join(apiFeature, 'thing.service.ts');
    expect(
      await rulesFor(file, `import { makeThing } from '${spec(join(root, file), target)}';\nexport const x = makeThing();\n`),
    ).toContain('import-x/no-restricted-paths');
  });

  it('reports a repository importing a service or routes', async () => {
    const file = join(apiFeature, 'other.repository.ts');
    const service = `import { makeThing } from './thing.service.ts';\nexport const x = makeThing();\n`;
    const routes = `import { thingRoutes } from './thing.routes.ts';\nexport const x = thingRoutes;\n`;
    expect(await rulesFor(rel(file), service)).toContain('import-x/no-restricted-paths');
    expect(await rulesFor(rel(file), routes)).toContain('import-x/no-restricted-paths');
  });

  it('reports a service importing routes or hono', async () => {
    const file = rel(join(apiFeature, 'other.service.ts'));
    expect(await rulesFor(file, `import { thingRoutes } from './thing.routes.ts';\nexport const x = thingRoutes;\n`)).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesFor(file, `import type { Context } from 'hono';\nexport type X = Context;\n`)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
  });

  it('reports the database layer importing the API', async () => {
    const file = 'db/src/lint-fixture.ts';
    expect(await rulesFor(file, `import { createApp } from '../../api/src/app.ts';\nexport const x = createApp;\n`)).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('reports a PWA feature importing another feature', async () => {
    const file = rel(join(featureA, 'page.tsx'));
    const code = `import { Screen } from '${spec(join(featureA, 'page.tsx'), join(featureB, 'screen.tsx'))}';\nexport const x = Screen;\n`;
    expect(await rulesFor(file, code)).toContain('import-x/no-restricted-paths');
  });

  it('reports the data layer or the PWA lib importing a screen', async () => {
    const screen = join(featureA, 'screen.tsx');
    for (const file of [join(pwaData, 'more.ts'), join(root, 'pwa/src/lib/lint-fixture.ts')]) {
      const code = `import { Screen } from '${spec(file, screen)}';\nexport const x = Screen;\n`;
      expect(await rulesFor(rel(file), code)).toContain('import-x/no-restricted-paths');
    }
  });

  it('reports a shared component importing a feature', async () => {
    const file = join(root, 'pwa/src/components/lint-fixture.tsx');
    const code = `import { Screen } from '${spec(file, join(featureA, 'screen.tsx'))}';\nexport const x = Screen;\n`;
    expect(await rulesFor(rel(file), code)).toContain('import-x/no-restricted-paths');
  });

  it('reports a value import of the API from the PWA, and accepts a type import', async () => {
    const file = 'pwa/src/lib/lint-fixture.ts';
    expect(await rulesFor(file, `import { createApp } from '@bookwell/api/app';\nexport const x = createApp;\n`)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(await rulesFor(file, `import type { AppType } from '@bookwell/api/app';\nexport type X = AppType;\n`)).toEqual([]);
  });

  it('reports a two-module import cycle', async () => {
    const dir = scratchDir('api/src/lib');
    write(dir, 'b.ts', `import { a } from './a.ts';\nexport const b = () => a;\n`);
    const a = write(dir, 'a.ts', `import { b } from './b.ts';\nexport const a = () => b;\n`);
    expect(await rulesFor(rel(a), `import { b } from './b.ts';\nexport const a = () => b;\n`)).toContain('import-x/no-cycle');
  });

  it('reports a source file whose name is not kebab-case', async () => {
    expect(await rulesFor('pwa/src/components/BookingForm.tsx', 'export const x = 1;\n')).toContain('bookwell/kebab-case-filename');
    expect(await rulesFor('api/src/features/lint-fixture/service_type.repository.ts', 'export const x = 1;\n')).toContain(
      'bookwell/kebab-case-filename',
    );
    expect(await rulesFor('api/src/features/lint-fixture/service-type.repository.ts', 'export const x = 1;\n')).toEqual([]);
  });

  it('accepts imports that follow the layers', async () => {
    const routes = rel(join(apiFeature, 'more.routes.ts'));
    const code = `import { makeThing } from './thing.service.ts';\nexport const x = makeThing();\n`;
    expect(await rulesFor(routes, code)).toEqual([]);
    const page = join(featureA, 'page.tsx');
    const good = `import { fetchThings } from '${spec(page, join(pwaData, 'things.ts'))}';\nimport { Screen } from './screen.tsx';\nexport const x = [fetchThings, Screen];\n`;
    expect(await rulesFor(rel(page), good)).toEqual([]);
  });
});
