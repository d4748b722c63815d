import { Alert, Code, List, Text } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import type { ConfigProblem } from '../../../../common/api/customizations';
import { ApiError } from '../../../api/client';

const CONFIG_FIELD = /^(body\.)?customConfig/;

/**
 * The configuration problems a refused save names: its details on `customConfig` (the server puts
 * the JSON Pointer of the failing place after it), as the validate action gives them.
 */
export function configProblemsOf(error: unknown): ConfigProblem[] {
  if (!(error instanceof ApiError)) return [];
  return error.details
    .filter((detail) => CONFIG_FIELD.test(detail.path))
    .map((detail) => ({ path: detail.path.replace(CONFIG_FIELD, ''), message: detail.message }));
}

/**
 * What checking a configuration found: "The configuration is invalid" (spec 8) with each problem and
 * the place it is at (a JSON Pointer, "/" for the whole), or that it is valid.
 */
export function ConfigProblems({ problems }: { problems: ConfigProblem[] }) {
  const { t } = useTranslation();
  if (problems.length === 0) {
    return (
      <Alert color="green" role="status" data-testid="customization-valid">
        {t('customization.valid')}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" data-testid="customization-problems">
      <Text size="sm">
        {t('customization.invalid', { error: t('customization.problemCount', { count: problems.length }) })}
      </Text>
      <List size="sm" mt="xs" spacing={4}>
        {problems.map((problem, index) => (
          <List.Item key={`${problem.path}-${index}`} data-testid="customization-problem">
            <Code>{problem.path || '/'}</Code> {problem.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
