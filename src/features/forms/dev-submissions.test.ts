import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { arrive } from '../../../tests/helpers/visitor.ts';
import type { DevSubmission } from './dev-submissions.server.ts';
import { jpeg, png, sendComplaintWithImages, testFormsConfig } from './forms.test-support.ts';

let on: TestApp;
let off: TestApp;

beforeAll(async () => {
  on = await createTestApp({ config: { forms: testFormsConfig({ DEV_SUBMISSIONS_API: 'true' }) } });
  off = await createTestApp({ config: { forms: testFormsConfig() } });
});
afterAll(async () => {
  await on?.close();
  await off?.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('/dev/submissions', () => {
  it('lists the stored submissions of a form, opened, with their files from the file store', async () => {
    const visitor = await arrive(on.app);
    const images: [Buffer, Buffer] = [await png(), await jpeg()];
    const { response: sent, payload } = await sendComplaintWithImages(on.app, visitor, images);
    expect(sent.statusCode, sent.body).toBe(200);

    const response = await on.app.inject({ method: 'GET', url: '/dev/submissions?form=complaint' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const [latest, ...rest] = response.json() as DevSubmission[];
    expect(rest).toEqual([]);
    expect(latest?.form).toBe('complaint');
    expect(latest?.siteId).toBe('konsernifi');
    expect(latest?.data).toEqual(payload.Data);
    expect(latest?.files).toEqual([
      {
        position: 0,
        name: 'a.png',
        mime: 'image/png',
        size: images[0]?.length,
        storedBytes: images[0]?.length,
        sha256: sha256(images[0] as Buffer),
      },
      {
        position: 1,
        name: 'b.jpg',
        mime: 'image/jpeg',
        size: images[1]?.length,
        storedBytes: images[1]?.length,
        sha256: sha256(images[1] as Buffer),
      },
    ]);
    const none = await on.app.inject({ method: 'GET', url: '/dev/submissions?form=feedback' });
    expect(none.json()).toEqual([]);
  });

  it('refuses an unknown form with 400 problem+json', async () => {
    const response = await on.app.inject({ method: 'GET', url: '/dev/submissions?form=nope' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().errors).toEqual({ form: expect.any(String) });
  });

  it('answers this machine only', async () => {
    const response = await on.app.inject({
      method: 'GET',
      url: '/dev/submissions?form=complaint',
      remoteAddress: '203.0.113.7',
    });
    expect(response.statusCode).toBe(404);
  });

  it('does not exist unless enabled', async () => {
    const response = await off.app.inject({
      method: 'GET',
      url: '/dev/submissions?form=complaint',
    });
    expect(response.statusCode).toBe(404);
  });
});
