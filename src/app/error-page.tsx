import { PageHero } from '../features/content/index.server.ts';
import { usePage } from '../render/page-context.tsx';
import { homePath } from '../sites/resolve.ts';

export function ErrorPage(props: { status: 404 | 500 }) {
  const { site, lang, t } = usePage();
  const key = props.status === 404 ? 'notFound' : 'server';
  return (
    <PageHero title={t(`error.${key}.title`)} lead={t(`error.${key}.body`)}>
      <p>
        <a href={homePath(site, lang)}>{t('error.backHome')}</a>
      </p>
    </PageHero>
  );
}
