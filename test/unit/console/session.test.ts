import { describe, expect, it } from 'vitest';
import { tokenInAddress } from '../../../console/src/session.ts';

describe('a token in the console’s address (decisions §32)', () => {
  const cognito = { signIn: 'cognito', domain: 'https://tms.auth.eu-west-1.amazoncognito.com', clientId: 'c' } as const;

  it('takes it where the console signs in by token (the local stack’s `npm start` link)', () => {
    // Act
    const given = tokenInAddress({ signIn: 'token' }, '#token=eyJ.the.token');
    // Assess
    expect(given).toEqual({ take: 'eyJ.the.token' });
  });

  it('refuses it where the console signs in through Cognito: a link must not sign anyone in as its author', () => {
    // Act
    const given = tokenInAddress(cognito, '#token=eyJ.an.attackers.token');
    // Assess
    expect(given).toEqual({ refuse: true });
  });

  it('finds none in an address without one, or an empty one', () => {
    // Act, Assess
    expect(tokenInAddress(cognito, '#/sends')).toBeUndefined();
    expect(tokenInAddress({ signIn: 'token' }, '')).toBeUndefined();
    expect(tokenInAddress(cognito, '#token=')).toBeUndefined();
  });
});
