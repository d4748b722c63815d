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
    ['client/components/useSchemaForm.ts', "import i18next from 'i18next';"],
    ['client/api/auth.ts', "import { queryOptions } from '@tanstack/react-query';"],
  ])('%s may not: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['common/api/probe.ts', "import { z } from 'zod/mini'; import { ROLES } from '../roles';"],
    ['client/api/probe.ts', "import { z } from 'zod/mini'; import type { $ZodType } from 'zod/v4/core';"],
    ['server/probe.ts', "import { z } from 'zod';"],
    ['client/probe.ts', "import { ROLES } from '../common/roles';"],
    ['client/pages/users/probe.tsx', "import { useTranslation } from 'react-i18next';"],
    ['client/public/probe.test.tsx', "import i18next from 'i18next';"],
    ['client/api/queryOptions.ts', "import type { queryOptions } from '@tanstack/react-query';"],
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
