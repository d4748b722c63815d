import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The real config, without type information: the probes below are not files of the project.
const eslint = new ESLint({
  cwd: import.meta.dirname,
  overrideConfig: [
    tseslint.configs.disableTypeChecked,
    { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ],
});

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// The first lint loads the whole config and its plugins: seconds on a busy machine.
describe('layer boundaries', { timeout: 60_000 }, () => {
  it.each([
    ['common/probe.ts', "import { x } from '../server/config';"],
    ['common/api/probe.ts', "import { x } from '../../client/api/client';"],
    ['common/probe.ts', "import fs from 'node:fs';"],
    ['common/probe.ts', "import crypto from 'crypto';"],
    ['common/probe.ts', "export { x } from '../server/config';"],
    ['client/pages/probe.tsx', "import { x } from '../../server/http-error';"],
    ['client/probe.ts', "import type { X } from '../server/app';"],
    ['common/api/probe.ts', "import { z } from 'zod';"],
    ['common/probe.ts', "import * as z from 'zod/v4';"],
    ['client/api/probe.ts', "import { z } from 'zod';"],
    ['client/probe.ts', "import type { ZodType } from 'zod';"],
    ['client/public/probe.tsx', "import { useTranslation } from 'react-i18next';"],
    ['client/pages/login/probe.tsx', "import { Button } from '@mantine/core';"],
    ['client/components/use-schema-form.ts', "import i18next from 'i18next';"],
    ['client/api/auth.ts', "import { queryOptions } from '@tanstack/react-query';"],
    ['client/pages/users/probe.tsx', "import { useTranslation } from 'react-i18next';"],
    ['client/app/probe.ts', "import type { TFunction } from 'i18next';"],
    ['client/pages/account/probe.tsx', "import { ActionIcon, Tooltip } from '@mantine/core';"],
  ])('%s may not: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['common/api/probe.ts', "import { z } from 'zod/mini'; import { ROLES } from '../roles';"],
    ['client/api/probe.ts', "import { z } from 'zod/mini'; import type { $ZodType } from 'zod/v4/core';"],
    ['server/probe.ts', "import { z } from 'zod';"],
    ['client/probe.ts', "import { ROLES } from '../common/roles';"],
    ['client/pages/users/probe.tsx', "import { useTranslation } from '../../i18n/use-translation';"],
    ['client/i18n/translate.test.ts', "import i18next from 'i18next';"],
    ['client/api/query-options.ts', "import type { queryOptions } from '@tanstack/react-query';"],
    ['client/pages/account/probe.tsx', "import { Tooltip } from '../../components/Tooltip';"],
    ['client/components/tooltip-code.ts', "export { Tooltip } from '@mantine/core';"],
    ['server/probe.ts', "import fs from 'node:fs'; import { ROLES } from '../common/roles';"],
  ])('%s may: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});

describe('events in state updaters', { timeout: 60_000 }, () => {
  const lint = async (code: string) => {
    const [result] = await eslint.lintText(code, { filePath: 'client/pages/probe.tsx' });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax');
  };

  it('refuses reading the event inside an updater, which crashed the settings page', async () => {
    expect(await lint('setValues((v) => ({ ...v, fullName: e.currentTarget.value }));')).toHaveLength(1);
    expect(await lint('setName(function () { return event.target.value; });')).toHaveLength(1);
  });

  it('accepts the event read in the handler', async () => {
    expect(await lint('setName(e.currentTarget.value);')).toEqual([]);
    expect(await lint('const value = e.currentTarget.value; setValues((v) => ({ ...v, value }));')).toEqual([]);
  });
});

// decision 059: SQL in repositories, and a data layer that knows no feature
describe('queries live in repositories', { timeout: 60_000 }, () => {
  const lint = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages
      .filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports')
      .map((m) => m.message);
  };
  const query = "export const rows = (db) => db.selectFrom('users').selectAll().where('id', '=', 1).execute();";

  it.each([
    ['server/modules/probe/service.ts', query],
    [
      'server/modules/probe/routes.ts',
      "export const f = (db) => db.insertInto('users').values({}).executeTakeFirst();",
    ],
    ['server/plugins/probe.ts', "export const f = (db) => db.deleteFrom('sessions');"],
    ['server/modules/probe/service.ts', "export const f = (trx) => trx.updateTable('users').set({ a: 1 });"],
    ['server/modules/probe/service.ts', 'export const f = (query) => query.executeTakeFirstOrThrow();'],
    ['server/mail/probe.ts', "import { sql } from 'kysely';"],
    ['server/seed/probe.ts', "import { type Kysely, sql } from 'kysely';"],
  ])('%s may not: %s', async (filePath, code) => {
    const messages = await lint(filePath, code);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/SQL lives in repositories \(repo\.ts or store\.ts/);
  });

  it.each([
    ['server/modules/probe/repo.ts', query],
    ['server/modules/probe/store.ts', query],
    ['server/modules/probe/search-repo.ts', query],
    ['server/mail/store.ts', "import { sql } from 'kysely';"],
    ['server/db/probe.ts', query],
    [
      'server/db/migrations/099_probe.ts',
      "import { sql } from 'kysely'; export const f = (db) => sql`select 1`.execute(db);",
    ],
    ['server/modules/probe/probe.test.ts', query],
    ['server/test/probe.ts', query],
    // a service opens the transaction that its repositories' calls share
    ['server/modules/probe/service.ts', 'export const f = (db) => db.transaction().execute(async (trx) => g(trx));'],
    [
      'server/modules/probe/service.ts',
      "export const f = (db) => db.transaction().setIsolationLevel('serializable').execute(async (trx) => g(trx));",
    ],
    ['server/modules/probe/service.ts', "import type { Kysely, Transaction } from 'kysely';"],
  ])('%s may: %s', async (filePath, code) => {
    expect(await lint(filePath, code)).toEqual([]);
  });
});

describe('the data layer imports no feature', { timeout: 60_000 }, () => {
  const imports = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it.each([
    ['server/db/migrations/010_version_order.ts', "import { orderOf } from '../../modules/catalogue/semver-order';"],
    ['server/db/migrations/001/probe.ts', "import type { X } from '../../../modules/users/repo';"],
    ['server/db/index.ts', "import { seedDemoData } from '../seed/demo';"],
    ['server/db/probe.ts', "export { insertUser } from '../modules/users/repo';"],
  ])('%s may not: %s', async (filePath, code) => {
    const messages = await imports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/server\/db\/ is the data layer and imports no feature/);
  });

  it.each([
    ['server/db/migrations/099_probe.ts', "import type { DialectName } from '../dialect';"],
    ['server/db/constraints.ts', "import { PLATFORMS } from '../../common/domain';"],
    ['server/db/probe.test.ts', "import { insertUser } from '../modules/users/repo';"],
    ['server/seed/probe.ts', "import { insertUser } from '../modules/users/repo';"],
  ])('%s may: %s', async (filePath, code) => {
    expect(await imports(filePath, code)).toEqual([]);
  });
});
