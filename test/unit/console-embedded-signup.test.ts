import { describe, expect, it } from 'vitest';
import { isFacebookOrigin, sessionEventOf } from '../../console/src/embedded-signup.ts';

/** The console's reading of Embedded Signup's `message` event (issue 55, docs/platform-2027.md §1.2). */
const event = (origin: string, data: unknown) => ({ origin, data }) as MessageEvent;
const finish = (name: string, data: Record<string, string>) => JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: name, data });

describe('the Embedded Signup message event, as the console reads it (issue 55)', () => {
  it('takes the session only from facebook.com over HTTPS', () => {
    // Prepare, Act, Assess
    expect(['https://www.facebook.com', 'https://facebook.com', 'https://web.facebook.com'].map(isFacebookOrigin)).toEqual([
      true,
      true,
      true,
    ]);
    const refused = ['http://www.facebook.com', 'https://facebook.com.evil.example', 'https://notfacebook.com', 'null', ''];
    expect(refused.map(isFacebookOrigin)).toEqual([false, false, false, false, false]);
    expect(sessionEventOf(event('https://evil.example', finish('FINISH', { waba_id: '1', phone_number_id: '2' })))).toBeUndefined();
  });

  it('reads FINISH, the coexistence finish, a cancel and an error, and ignores other messages', () => {
    // Prepare
    const ids = { waba_id: '10', phone_number_id: '20', business_id: '30' };
    const fb = 'https://www.facebook.com';
    // Act, Assess
    expect(sessionEventOf(event(fb, finish('FINISH', ids)))).toEqual({ info: { ...ids, coexistence: false } });
    expect(sessionEventOf(event(fb, finish('FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING', { waba_id: '10', phone_number_id: '20' })))).toEqual({
      info: { waba_id: '10', phone_number_id: '20', coexistence: true },
    });
    expect(sessionEventOf(event(fb, finish('FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING', { waba_id: '10' })))).toEqual({
      failure: 'Embedded Signup finished without a WABA and a number',
    });
    expect(sessionEventOf(event(fb, finish('CANCEL', { current_step: 'BUSINESS_ACCOUNT_SELECTION' })))).toEqual({
      failure: 'Embedded Signup was closed at BUSINESS_ACCOUNT_SELECTION',
    });
    expect(sessionEventOf(event(fb, finish('ERROR', { error_message: 'Phone number not eligible' })))).toEqual({
      failure: 'Phone number not eligible',
    });
    expect(sessionEventOf(event(fb, '{"type":"OTHER"}'))).toBeUndefined();
    expect(sessionEventOf(event(fb, 'not json'))).toBeUndefined();
  });
});
