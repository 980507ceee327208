import { usePage } from '../../../render/page-context.tsx';
import styles from './content.module.css';

export interface NutrientRow {
  key: string;
  label: string;
  /** The amount with its unit, formatted for the page's language. */
  value: string;
}

/** Nutrients as a two-column table with row headers: products per 100 g, recipes per serving. */
export function NutrientTable(props: { rows: NutrientRow[] }) {
  const { t } = usePage();
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">{t('product.nutrient')}</th>
          <th scope="col">{t('product.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
