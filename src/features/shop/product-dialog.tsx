import { useEffect, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../../i18n/react.tsx';
import { fetchProduct } from './api.ts';
import { BuyControl } from './buy-control.tsx';
import { ProductPrices } from './product-prices.tsx';
import type { ProductDetail } from './schemas.ts';
import styles from './shop.module.css';
import { StockText } from './stock-text.tsx';

type Load = { kind: 'loading' } | { kind: 'loaded'; product: ProductDetail } | { kind: 'error' };

/** The modal's content: loading, the product, or 'Tuotteen lataaminen epäonnistui.' (spec §4, §8). */
function ProductView(props: { code: string; name: string }) {
  const t = useT();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  useEffect(() => {
    let current = true;
    fetchProduct(props.code).then(
      (product) => current && setLoad({ kind: 'loaded', product }),
      () => current && setLoad({ kind: 'error' }),
    );
    return () => {
      current = false;
    };
  }, [props.code]);

  if (load.kind !== 'loaded') {
    return (
      <>
        <Heading slot="title" className={styles.modalTitle}>
          {props.name}
        </Heading>
        <p role="status" className={load.kind === 'error' ? styles.statusError : undefined}>
          {load.kind === 'error' ? t('shop.modal.error') : t('shop.modal.loading')}
        </p>
      </>
    );
  }
  const { product } = load;
  return (
    <div className={styles.modalBody}>
      {product.image ? <img src={product.image} alt="" className={styles.modalImage} /> : null}
      <div className={styles.card}>
        <Heading slot="title" className={styles.modalTitle}>
          {product.name}
        </Heading>
        <ProductPrices
          price={product.price}
          pricePerKg={product.pricePerKg}
          svhPrice={product.svhPrice}
          discountPercentage={product.discountPercentage}
        />
        <StockText stock={product.stock} className={styles.stock} />
        {product.price ? (
          <BuyControl
            code={product.code}
            name={product.name}
            category={product.category}
            price={product.price}
            svhPrice={product.svhPrice}
            stock={product.stock}
            viewItem
          />
        ) : null}
        <a href={product.url}>{t('shop.modal.toProduct')}</a>
      </div>
    </div>
  );
}

/**
 * The product modal's dialog (spec §2, §4): the product's details from `GET /api/products/{code}`
 * in a React Aria dialog named by its heading. Focus stays inside while it is open; Escape, a press
 * outside and the close button shut it (`onClose`), and the focus goes back to what opened it.
 * Its own chunk: React Aria loads when a visitor first opens a product, not with every card.
 */
export function ProductDialog(props: { code: string; name: string; onClose: () => void }) {
  const t = useT();
  return (
    <ModalOverlay
      className={styles.overlay}
      isDismissable
      isOpen
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal className={styles.modalFrame}>
        <Dialog className={styles.modal}>
          <button
            type="button"
            className={`${styles.removeButton} ${styles.modalClose}`}
            aria-label={t('shop.modal.close')}
            onClick={props.onClose}
          >
            ×
          </button>
          <ProductView code={props.code} name={props.name} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
