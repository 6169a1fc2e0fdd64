import { describe, expect, it } from 'vitest';
import { emailSchema, MESSAGES, signUpSchema } from '@campus/contract';
import { fieldErrors, firstError } from './schemaErrors';

describe('messages from the contract schemas', () => {
  it('gives the first message for a value, or null', () => {
    expect(firstError(emailSchema, '')).toBe(MESSAGES.emailRequired);
    expect(firstError(emailSchema, 'not-an-address')).toBe(MESSAGES.emailInvalid);
    expect(firstError(emailSchema, 'maya@campus.edu')).toBeNull();
  });

  it('gives the first message per field', () => {
    expect(
      fieldErrors(signUpSchema, { firstName: '', lastName: 'R', email: 'maya@campus.edu', password: 'x' }),
    ).toEqual({
      firstName: MESSAGES.firstNameRequired,
      password: MESSAGES.passwordTooShort,
    });
  });
});
