import { type ReactNode, useEffect, useRef } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../../../i18n/react.tsx';
import styles from './subscriptions.module.css';

/*
 * The marketing lists' modal parts (React Aria's dialog, about 40 kB), apart from `kit.tsx`: an
 * island that shows only a button until its modal opens imports this module lazily, so a page
 * loads the dialog's code when the visitor (or the hash) opens it, not at load.
 */

/**
 * A modal dialog (React Aria): focus moves in and stays there, the page behind is inert and does
 * not scroll, Escape, a press outside and the close button shut it, and focus goes back.
 */
export function SubscribeModal(props: {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /**
   * false: the content has its own heading and close button (the expert question form); the
   * dialog's title is then for screen readers only.
   */
  withClose?: boolean;
}) {
  const t = useT();
  return (
    <ModalOverlay
      className={styles.backdrop}
      isDismissable
      isOpen={props.isOpen}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal className={styles.modalFrame}>
        <Dialog className={styles.modal}>
          <Heading
            slot="title"
            className={props.withClose === false ? styles.visuallyHidden : styles.title}
          >
            {props.title}
          </Heading>
          {props.withClose === false ? null : (
            <button type="button" className={styles.close} onClick={props.onClose}>
              {t('subscribe.close')}
            </button>
          )}
          {props.children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** The thank-you state: its text takes the focus, so it is read out. */
export function Thanks(props: { title: string; text: string; onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className={styles.thanks}>
      <div ref={ref} role="status" tabIndex={-1}>
        <p>
          <strong>{props.title}</strong>
        </p>
        <p>{props.text}</p>
      </div>
      <div>
        <button type="button" className={styles.open} onClick={props.onClose}>
          {t('subscribe.close')}
        </button>
      </div>
    </div>
  );
}
