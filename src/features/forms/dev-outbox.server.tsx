import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { renderToStaticMarkup } from 'react-dom/server';
import { openText } from './crypto.server.ts';
import { mailOutbox } from './tables.ts';

const LIMIT = 100;

/**
 * `/dev/outbox`: the latest mails of the outbox, for development without SMTP. Only when
 * NODE_ENV=development or DEV_OUTBOX_PAGE=true: the mails hold personal data.
 */
export async function devOutboxRoutes(app: FastifyInstance) {
  if (app.config.env !== 'development' && !app.config.forms.devOutboxPage) return;
  app.get('/dev/outbox', async (_request, reply) => {
    const rows = await app.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(LIMIT);
    const key = app.config.forms.encryptionKey;
    const html = renderToStaticMarkup(
      <html lang="en">
        <head>
          <meta charSet="utf-8" />
          <title>Outbox</title>
        </head>
        <body>
          <main>
            <h1>Outbox ({rows.length})</h1>
            {rows.map((row) => (
              <article key={row.id} data-outbox-id={row.id}>
                <h2>{row.subject}</h2>
                <p>
                  To {row.recipients} · {row.createdAt.toISOString()} ·{' '}
                  {row.sentAt
                    ? `sent ${row.sentAt.toISOString()}`
                    : row.failedAt
                      ? `failed: ${row.lastError ?? ''}`
                      : `waiting (${row.attempts} attempts)`}
                </p>
                <pre>{safeOpen(key, row.sealedBody)}</pre>
              </article>
            ))}
          </main>
        </body>
      </html>,
    );
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`<!DOCTYPE html>${html}`);
  });
}

function safeOpen(key: Buffer, sealed: string): string {
  try {
    return openText(key, sealed);
  } catch {
    return '(sealed with another key)';
  }
}
