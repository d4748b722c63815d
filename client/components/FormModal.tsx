import { Button, type ModalProps } from '@mantine/core';
import { type MutationFunction, useIsMutating, useMutation, type UseMutationOptions } from '@tanstack/react-query';
import {
  type ComponentType,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from '../i18n/use-translation';
import { lazyDialog } from './lazy-dialog';

/** Mantine's Modal, whose code comes when a dialog first opens (decision 092). */
const loadModal = () => import('./modal').then((module) => module.Modal as ComponentType<ModalProps>);
export const Modal = lazyDialog(loadModal);

/**
 * A page's dialog whose code (its form, its schema) comes with Mantine's Modal when it is first
 * opened, in one round trip rather than two (decision 092).
 */
export function lazyFormDialog<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazyDialog(() => Promise.all([load(), loadModal()]).then(([component]) => component));
}

interface FormModalState {
  /** The key of the modal's save calls: while one is under way, the modal cannot be dismissed. */
  mutationKey: readonly unknown[];
  saving: boolean;
  /** Closes the modal whatever is under way: for the form, once its answer has come. */
  close: () => void;
  /**
   * A dialog opened from inside this one (a confirmation) covers it until the returned function is
   * called: meanwhile Escape closes only that dialog, not this one under it.
   */
  cover: () => () => void;
}

const FormModalContext = createContext<FormModalState | null>(null);

type FormModalProps = Omit<ModalProps, 'closeOnEscape' | 'closeOnClickOutside'> & { children: ReactNode };

/**
 * A modal holding a form that saves (docs/decisions/019). While a save is under way the modal stays:
 * Cancel, the close button, Escape and a click outside do nothing until the answer comes, and the
 * form then says what happened (a notification on success, the problem in the form otherwise). A
 * user who dismissed it mid-save would otherwise not know whether the change was made.
 * Stays mounted and is opened and closed, rather than mounted open: Mantine gives the focus back to
 * the button that opened the modal only when it sees `opened` change.
 */
export function FormModal({ onClose, children, closeButtonProps, ...props }: FormModalProps) {
  const { t } = useTranslation();
  const scope = useId();
  const mutationKey = useMemo(() => ['form-modal', scope] as const, [scope]);
  const saving = useIsMutating({ mutationKey }) > 0;
  const [covers, setCovers] = useState(0);
  const cover = useCallback(() => {
    setCovers((count) => count + 1);
    return () => setCovers((count) => count - 1);
  }, []);
  const state = useMemo(() => ({ mutationKey, saving, close: onClose, cover }), [mutationKey, saving, onClose, cover]);
  return (
    <Modal
      centered
      {...props}
      onClose={() => {
        if (!saving) onClose();
      }}
      // every open modal listens for Escape on the window: one covered by another leaves it to that one
      closeOnEscape={!saving && covers === 0}
      closeOnClickOutside={!saving}
      closeButtonProps={{ 'aria-label': t('app.close'), ...closeButtonProps, disabled: saving }}
    >
      <FormModalContext.Provider value={state}>{children}</FormModalContext.Provider>
    </Modal>
  );
}

export function useFormModal(): FormModalState {
  const state = useContext(FormModalContext);
  if (!state) throw new Error('useFormModal is used outside a FormModal');
  return state;
}

/**
 * For a dialog that may open inside a FormModal: while `opened`, the FormModal under it (if any)
 * leaves Escape to it. Outside a FormModal it does nothing.
 */
export function useCoverEnclosingFormModal(opened: boolean) {
  const cover = useContext(FormModalContext)?.cover;
  useEffect(() => (opened && cover ? cover() : undefined), [opened, cover]);
}

/**
 * useMutation for the modal's save: its pending state holds the modal open. The callbacks given
 * here run even if the page goes away meanwhile, so the outcome is always told.
 */
export function useModalMutation<TData, TVariables>(
  mutationFn: MutationFunction<TData, TVariables>,
  options: Omit<UseMutationOptions<TData, unknown, TVariables>, 'mutationFn' | 'mutationKey'> = {},
) {
  const { mutationKey } = useFormModal();
  return useMutation({ ...options, mutationFn, mutationKey });
}

/** The form's Cancel: disabled while saving, like every other way out of the modal. */
export function ModalCancelButton({ children }: { children: ReactNode }) {
  const { saving, close } = useFormModal();
  return (
    <Button variant="default" onClick={close} disabled={saving}>
      {children}
    </Button>
  );
}
