import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link, useParams, useSearchParams } from 'react-router';
import type {
  AdminCampaign,
  CAMPAIGNS_API as CampaignsApi,
  Draw,
  OpenedCampaign,
  Participant,
} from '../../features/subscriptions/admin.ts';
import styles from '../admin.module.css';
import { download, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { SensitiveDownload } from '../reauth.tsx';
import { useMe } from '../session.tsx';
import { AdminForm, ErrorSummary, NumberField, useFieldErrors } from '../ui.tsx';
import {
  type Column,
  formErrors,
  ListPages,
  offsetOf,
  RowsTable,
  type Said,
  SaidText,
} from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const CAMPAIGNS_API: typeof CampaignsApi = '/api/admin/campaigns';

/** The campaigns of the sites the staff member may read, with their counts (no addresses). */
export function CampaignsScreen() {
  const { t, dateTime } = useT();
  const list = useQuery({
    queryKey: ['campaigns'],
    queryFn: () => get<{ campaigns: AdminCampaign[] }>(CAMPAIGNS_API),
  });
  const columns: Column<AdminCampaign>[] = [
    [
      t('admin.campaigns.name'),
      (c) => (
        <Link
          to={`/campaigns/${c.id}`}
          aria-label={t('admin.campaigns.openLabel', { name: c.name })}
        >
          {c.name}
        </Link>
      ),
    ],
    [t('admin.campaigns.site'), (c) => c.siteId],
    [
      t('admin.campaigns.period'),
      (c) =>
        t('admin.campaigns.periodValue', { start: dateTime(c.startsAt), end: dateTime(c.endsAt) }),
    ],
    [t('admin.campaigns.participants'), (c) => c.participants, 'numbers'],
    [t('admin.campaigns.draws'), (c) => c.drawCount, 'numbers'],
  ];
  return (
    <>
      <Heading level={1}>{t('admin.campaigns.heading')}</Heading>
      <p>{t('admin.campaigns.lead')}</p>
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {list.data ? (
        <RowsTable
          caption={t('admin.campaigns.caption')}
          hiddenCaption
          columns={columns}
          rows={list.data.campaigns}
          rowKey={(c) => c.id}
          empty={t('admin.campaigns.empty')}
        />
      ) : null}
    </>
  );
}

/**
 * A campaign opened (its reading is written to the audit log): its participants 50 a page, their
 * export after re-authentication, the raffle and the draws made, each with its seed, the number
 * and digest of the participants it considered, and its winners.
 */
export function CampaignScreen() {
  const { t, dateTime } = useT();
  const { id = '' } = useParams();
  const me = useMe().data;
  const [params] = useSearchParams();
  const offset = offsetOf(params);
  const campaign = useQuery({
    queryKey: ['campaign', id, offset],
    queryFn: () => get<OpenedCampaign>(`${CAMPAIGNS_API}/${id}?offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const participantsId = useId();
  const data = campaign.data;
  const columns: Column<Participant>[] = [
    [t('admin.campaigns.email'), (p) => p.email],
    [t('admin.campaigns.lang'), (p) => p.lang],
    [t('admin.campaigns.joined'), (p) => dateTime(p.createdAt)],
    [
      t('admin.campaigns.wantsNewsletter'),
      (p) => t(p.wantsNewsletter ? 'admin.campaigns.yes' : 'admin.campaigns.no'),
    ],
  ];
  return (
    <>
      <p>
        <Link to="/campaigns">{t('admin.campaigns.back')}</Link>
      </p>
      {campaign.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {data ? (
        <>
          <Heading level={1}>{data.name}</Heading>
          <p>
            {data.siteId} ·{' '}
            {t('admin.campaigns.periodValue', {
              start: dateTime(data.startsAt),
              end: dateTime(data.endsAt),
            })}
          </p>
          {me?.permissions.includes('subscribers.manage') ? (
            <DrawForm campaignId={data.id} />
          ) : null}
          <Draws draws={data.draws} />
          <section aria-labelledby={participantsId}>
            <Heading level={2} id={participantsId}>
              {t('admin.campaigns.participantsHeading', { count: data.participants })}
            </Heading>
            {me?.permissions.includes('subscribers.export') ? (
              <ExportButton campaignId={data.id} />
            ) : null}
            <RowsTable
              caption={t('admin.campaigns.participantsCaption')}
              hiddenCaption
              columns={columns}
              rows={data.participantList}
              rowKey={(p) => p.id}
              empty={t('admin.campaigns.noParticipants')}
            />
            <ListPages offset={offset} total={data.participants} params={params} />
          </section>
        </>
      ) : null}
    </>
  );
}

function ExportButton({ campaignId }: { campaignId: string }) {
  const { t } = useT();
  return (
    <div className={styles.actions}>
      <SensitiveDownload
        label={t('admin.campaigns.export')}
        downloaded={t('admin.campaigns.exported')}
        fetchFile={() =>
          download(`${CAMPAIGNS_API}/${campaignId}/participants.csv`, 'osallistujat.csv')
        }
      />
    </div>
  );
}

/** The raffle: how many winners; the draw is made and recorded by the server. */
function DrawForm({ campaignId }: { campaignId: string }) {
  const { t } = useT();
  const client = useQueryClient();
  const headingId = useId();
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<Said>(null);
  const [pending, setPending] = useState(false);
  return (
    <section aria-labelledby={headingId} className={styles.panel}>
      <Heading level={2} id={headingId}>
        {t('admin.campaigns.drawHeading')}
      </Heading>
      <p>{t('admin.campaigns.drawLead')}</p>
      <ErrorSummary error={error} />
      <SaidText said={said} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          const winners = Number(new FormData(event.currentTarget).get('winners') ?? '');
          setError(null);
          setSaid(null);
          if (!Number.isInteger(winners) || winners < 1 || winners > 100) {
            setError(formErrors({ winners: 'admin.error.invalid' }));
            return;
          }
          setPending(true);
          try {
            const draw = await post<Draw>(`${CAMPAIGNS_API}/${campaignId}/draws`, { winners });
            setSaid({
              text: t('admin.campaigns.drawn', { count: draw.winners.length }),
              alert: false,
            });
            await client.invalidateQueries({ queryKey: ['campaign', campaignId] });
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <NumberField name="winners" label={t('admin.campaigns.winners')} defaultValue="1" />
        <div className={styles.actions}>
          <Button type="submit" className={styles.primary}>
            {t('admin.campaigns.draw')}
          </Button>
        </div>
      </AdminForm>
    </section>
  );
}

/** The draws made, the latest first, each with what makes it repeatable and its winners. */
function Draws({ draws }: { draws: Draw[] }) {
  const { t, dateTime } = useT();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Heading level={2} id={headingId}>
        {t('admin.campaigns.drawsHeading')}
      </Heading>
      {draws.length === 0 ? <p>{t('admin.campaigns.noDraws')}</p> : null}
      <ul className={styles.plainList}>
        {draws.map((draw) => (
          <li key={draw.id} className={styles.card}>
            <Heading level={3}>
              {t('admin.campaigns.drawTitle', { date: dateTime(draw.drawnAt) })}
            </Heading>
            <dl className={styles.fields}>
              <div>
                <dt>{t('admin.campaigns.winnersList')}</dt>
                <dd>
                  <ol>
                    {draw.winners.map((w) => (
                      <li key={w.id}>{w.email ?? t('admin.campaigns.erased', { id: w.id })}</li>
                    ))}
                  </ol>
                </dd>
              </div>
              <div>
                <dt>{t('admin.campaigns.drawnBy')}</dt>
                <dd>{draw.drawnBy}</dd>
              </div>
              <div>
                <dt>{t('admin.campaigns.considered')}</dt>
                <dd>{draw.participantCount}</dd>
              </div>
              <div>
                <dt>{t('admin.campaigns.seed')}</dt>
                <dd className={styles.secret}>{draw.seed}</dd>
              </div>
              <div>
                <dt>{t('admin.campaigns.digest')}</dt>
                <dd className={styles.secret}>{draw.participantsDigest}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
