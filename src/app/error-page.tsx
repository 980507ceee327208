import { PageHero } from '../features/content/index.server.ts';
import { usePage } from '../render/page-context.tsx';
import { homePath } from '../sites/resolve.ts';

const keys = { 400: 'badRequest', 404: 'notFound', 500: 'server', 503: 'unavailable' } as const;

export function ErrorPage(props: { status: 400 | 404 | 500 | 503 }) {
  const { site, lang, t } = usePage();
  const key = keys[props.status];
  return (
    <PageHero title={t(`error.${key}.title`)} lead={t(`error.${key}.body`)}>
      <p>
        <a href={homePath(site, lang)}>{t('error.backHome')}</a>
      </p>
    </PageHero>
  );
}
