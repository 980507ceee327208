import { usePage } from '../../../render/page-context.tsx';
import styles from './content.module.css';

export interface Crumb {
  name: string;
  href: string;
}

/** Where the page sits: home › section › page. The last item is the page itself. */
export function Breadcrumbs(props: { items: Crumb[] }) {
  const { t } = usePage();
  if (props.items.length < 2) return null;
  return (
    <nav aria-label={t('content.breadcrumbs')} className={styles.breadcrumbs}>
      <ol>
        {props.items.map((item, index) => (
          <li key={item.href}>
            {index === props.items.length - 1 ? (
              <span aria-current="page">{item.name}</span>
            ) : (
              <a href={item.href}>{item.name}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
