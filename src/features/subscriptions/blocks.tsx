import { Island } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import { NEWS_RELEASES_HASH } from './settings.ts';

/** A page's campaign block: the participation form of one campaign. */
export function CampaignBlock(props: { campaignId: string; title?: string | undefined }) {
  const { lang } = usePage();
  return (
    <div className="container">
      <Island
        name="campaign-form"
        props={{ campaignId: props.campaignId, ...(props.title ? { title: props.title } : {}) }}
        lang={lang}
        hydrate="visible"
      />
    </div>
  );
}

/** A page's news-release subscription: its button, and its modal on the hash. */
export function NewsReleasesBlock(props: { hash?: string | undefined }) {
  const { lang } = usePage();
  return (
    <Island
      name="news-releases-modal"
      props={{ hash: props.hash ?? NEWS_RELEASES_HASH }}
      lang={lang}
      hydrate="idle"
    />
  );
}
