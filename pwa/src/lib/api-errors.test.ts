import { describe, expect, it } from 'vitest';
import { ApiError, GENERIC_TEXT, errorMessage, fieldProblem, messageFor, statusText } from './api-errors.ts';

describe('error texts (docs/product/08-errors.md)', () => {
  it('maps statuses to the generic texts', () => {
    expect(statusText(new ApiError('http', 400))).toBe('Invalid request. Please check your input and try again.');
    expect(statusText(new ApiError('http', 401))).toBe('You are not authorized to perform this action.');
    expect(statusText(new ApiError('http', 403))).toBe('You do not have permission to perform this action.');
    expect(statusText(new ApiError('http', 404))).toBe('The requested resource was not found.');
    expect(statusText(new ApiError('http', 500))).toBe('An internal server error occurred. Please try again later.');
    expect(statusText(new ApiError('http', 418))).toBe('Request failed with status 418');
    expect(statusText(new ApiError('network', null))).toBe('Cannot connect to the server. Please check your network connection.');
    expect(statusText(new Error('boom'))).toBe('An unexpected error occurred. Please try again.');
  });

  it("prefers the server's words: details behind the error prefix, then error, then message", () => {
    const details = new ApiError('http', 400, {
      error: 'Invalid input',
      code: 'validation',
      details: [
        { path: 'email', message: 'Email is invalid' },
        { path: 'name', message: 'Name is required' },
      ],
    });
    expect(errorMessage(details)).toBe('Invalid input: Email is invalid, Name is required');
    expect(errorMessage(new ApiError('http', 400, { details: [{ path: 'x', message: 'Bad x' }] }))).toBe('Validation failed: Bad x');
    // One detail whose message is the error itself (a phone number the server cannot read): said once.
    const phone = 'customer.phone is not a possible phone number: write it as dialled in US, or with + and the country code';
    expect(
      errorMessage(new ApiError('http', 400, { error: phone, code: 'validation', details: [{ path: 'customer.phone', message: phone }] })),
    ).toBe(phone);
    expect(errorMessage(new ApiError('http', 409, { error: 'This time is no longer available', code: 'slot_taken' }))).toBe(
      'This time is no longer available',
    );
    expect(errorMessage(new ApiError('http', 500, { message: 'Oops' }))).toBe('Oops');
    expect(errorMessage(new ApiError('http', 502))).toBe('Request failed with status 502');
  });

  it("gives a 400's field and its message without the field's API name, for the form to show beside the field", () => {
    const phone = 'customer.phone is not a possible phone number: write it as dialled in US, or with + and the country code';
    expect(
      fieldProblem(new ApiError('http', 400, { error: phone, code: 'validation', details: [{ path: 'customer.phone', message: phone }] })),
    ).toEqual({
      path: 'customer.phone',
      message: 'Not a possible phone number: write it as dialled in US, or with + and the country code',
    });
    expect(fieldProblem(new ApiError('http', 400, { details: [{ path: 'slot', message: 'slot must be a positive integer' }] }))).toEqual({
      path: 'slot',
      message: 'Must be a positive integer',
    });
    // A message that does not start with its path is kept whole.
    expect(fieldProblem(new ApiError('http', 400, { details: [{ path: 'email', message: 'Email is invalid' }] }))).toEqual({
      path: 'email',
      message: 'Email is invalid',
    });
    expect(fieldProblem(new ApiError('http', 400, { error: 'Invalid input' }))).toBeNull();
    expect(fieldProblem(new ApiError('http', 409, { details: [{ path: 'x', message: 'x is taken' }] }))).toBeNull();
    expect(fieldProblem(new Error('boom'))).toBeNull();
  });

  it('applies a call catalogue', () => {
    const cat = { byStatus: { 400: 'Invalid email address' }, fallback: 'Failed to send password reset email. Please try again.' };
    expect(messageFor(new ApiError('http', 400), cat)).toBe('Invalid email address');
    expect(messageFor(new ApiError('http', 500), cat)).toBe('Failed to send password reset email. Please try again.');
    expect(messageFor(new ApiError('http', 400, { error: 'From server' }), cat)).toBe('From server');
    expect(messageFor(new ApiError('http', 400, { error: 'From server' }), { ...cat, preferServer: false })).toBe('Invalid email address');
    expect(messageFor(new ApiError('timeout', null), cat)).toBe(GENERIC_TEXT.noResponse);
  });
});
