import { Alert, Button } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';

/**
 * A button that leaves for the payment provider (a checkout, a new card), and the spec's message under
 * it when the provider's page cannot be had (spec 8).
 */
export function RedirectButton(props: {
  action: { mutate: () => void; isPending: boolean; isError: boolean };
  label: string;
  failure: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { action } = props;
  return (
    <>
      <Button mt="sm" onClick={() => action.mutate()} loading={action.isPending} data-testid={props.testId}>
        {t(props.label)}
      </Button>
      {action.isError && (
        <Alert color="red" mt="sm" role="alert" data-testid="payment-error">
          {t(props.failure)}
        </Alert>
      )}
    </>
  );
}
