import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import styles from './shop.module.css';

const loadDialog = () => import('./product-dialog.tsx');
const ProductDialog = lazy(() => loadDialog().then((m) => ({ default: m.ProductDialog })));

/**
 * The product modal's trigger (spec §2, §4): 'Pikakatselu: …' opens the product's details in a
 * dialog (`product-dialog.tsx`, fetched on first use; pointing at or focusing the button starts
 * the fetch). When the dialog closes, the focus returns to this button.
 */
export function ProductModal(props: { code: string; name: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    // React Aria gives the focus back to the element that had it when the dialog opened; a
    // browser that does not focus a clicked button (Safari) had none, so this one takes it.
    if (wasOpen.current && !open && trigger.current !== document.activeElement) {
      trigger.current?.focus();
    }
    wasOpen.current = open;
  }, [open]);

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={styles.quickView}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => setOpen(true)}
      >
        {t('shop.buy.quickView', { name: props.name })}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ProductDialog code={props.code} name={props.name} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
