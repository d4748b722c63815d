import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';
import { Modal, useCoverEnclosingFormModal } from './FormModal';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  message: string;
  cancelLabel: string;
  confirmLabel: string;
  /** while the confirmed action runs, the modal stays open and its buttons wait */
  pending: boolean;
  confirmColor?: string;
  testId: string;
  confirmTestId: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * A question before an action that cannot be undone (cancel an invitation, publish a version, remove
 * an artifact, revoke a token). Opened from inside a form modal, it answers Escape alone.
 */
export function ConfirmModal(props: ConfirmModalProps) {
  const { t } = useTranslation();
  useCoverEnclosingFormModal(props.opened);
  return (
    <Modal
      opened={props.opened}
      onClose={() => {
        if (!props.pending) props.onCancel();
      }}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <Stack gap="sm" data-testid={props.testId}>
        <Text size="sm">{props.message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel} disabled={props.pending}>
            {props.cancelLabel}
          </Button>
          <Button
            color={props.confirmColor}
            loading={props.pending}
            onClick={props.onConfirm}
            data-testid={props.confirmTestId}
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
