import { describe, expect, it } from 'vitest';
import { CHOICE_LABELS, changeTitle, choiceHint, pausedText, refusalView, waitingForSignInText, waitingText } from './offline-texts.ts';

const labels = (kind: 'create' | 'update' | 'delete', status: number) => refusalView(kind, status).choices.map((c) => CHOICE_LABELS[c]);

describe('waitingText', () => {
  it('says change for one and changes for any other count', () => {
    expect(waitingText(1)).toBe('1 change waiting to sync');
    expect(waitingText(3)).toBe('3 changes waiting to sync');
    expect(waitingText(0)).toBe('0 changes waiting to sync');
  });
});

describe('pausedText', () => {
  it('says the changes are kept until the person signs in again', () => {
    expect(pausedText(1)).toBe('Your change is kept on this device and will be sent once you sign in again.');
    expect(pausedText(2)).toBe('Your 2 changes are kept on this device and will be sent once you sign in again.');
  });
});

describe('waitingForSignInText', () => {
  it('says how many changes wait, and that only the person who made them sends them', () => {
    expect(waitingForSignInText(1)).toBe(
      '1 change made on this device is waiting and will be sent once the person who made it signs in again.',
    );
    expect(waitingForSignInText(2)).toBe(
      '2 changes made on this device are waiting and will be sent once the person who made them signs in again.',
    );
  });

  it('counts the changes the server refused apart: they are not sent, they wait for a choice', () => {
    expect(waitingForSignInText(1, 2)).toBe(
      '1 change made on this device is waiting and will be sent once the person who made it signs in again. ' +
        '2 changes the server refused wait for the person who made them to choose what to do.',
    );
    expect(waitingForSignInText(0, 1)).toBe('1 change the server refused waits for the person who made it to choose what to do.');
  });

  it('says the later changes held behind a refused one wait for the same choice, not that the server refused them', () => {
    expect(waitingForSignInText(0, 1, 1)).toBe(
      '1 change the server refused waits for the person who made it to choose what to do. ' +
        '1 later change to the same appointment waits for that choice too.',
    );
    expect(waitingForSignInText(2, 2, 3)).toBe(
      '2 changes made on this device are waiting and will be sent once the person who made them signs in again. ' +
        '2 changes the server refused wait for the person who made them to choose what to do. ' +
        '3 later changes to the same appointments wait for that choice too.',
    );
  });
});

describe('refusalView', () => {
  it('409 slot taken: pick another time or discard', () => {
    expect(refusalView('create', 409).text).toBe('This time is taken by another appointment.');
    expect(labels('create', 409)).toEqual(['Pick another time', 'Discard']);
    expect(labels('update', 409)).toEqual(['Pick another time', 'Discard']);
  });

  it('412 changed elsewhere: apply my change again or keep theirs', () => {
    expect(refusalView('update', 412).text).toBe('Someone else changed this appointment before your change was sent.');
    expect(labels('update', 412)).toEqual(['Apply my change again', 'Keep theirs']);
    expect(refusalView('delete', 412).text).toBe('Someone else changed this appointment before your deletion was sent.');
    expect(labels('delete', 412)).toEqual(['Apply my change again', 'Keep theirs']);
  });

  it('404 deleted elsewhere: an edit offers keep theirs alone (accept the deletion), anything else discard', () => {
    expect(refusalView('update', 404).text).toBe('Someone else deleted this appointment before your change was sent.');
    expect(labels('update', 404)).toEqual(['Keep theirs']);
    expect(choiceHint('keepTheirs', 404)).toBe('Accept the deletion and drop your change.');
    expect(labels('create', 404)).toEqual(['Discard']);
  });

  it('403: discard only', () => {
    expect(refusalView('update', 403).text).toBe('You are no longer allowed to make this change.');
    expect(labels('update', 403)).toEqual(['Discard']);
  });

  it("anything else keeps the server's message and offers discard, so nothing is dropped silently", () => {
    expect(refusalView('create', 422, 'Customer is required')).toEqual({
      text: 'The server did not accept this change: Customer is required',
      choices: ['discard'],
    });
    expect(refusalView('create', 400).text).toBe('The server did not accept this change.');
  });
});

describe('changeTitle', () => {
  it('names the kind of change, the customer and the time in the company zone', () => {
    expect(changeTitle('create', { customer_name: 'Liam Smith', start_time: '2026-03-02T15:00:00Z' }, 'America/New_York')).toBe(
      'New appointment: Liam Smith, Mon, Mar 2, 2026 at 10:00 AM',
    );
    expect(changeTitle('update', { start_time: '2026-03-02T15:00:00Z' }, 'UTC')).toBe(
      'Change to an appointment: Mon, Mar 2, 2026 at 3:00 PM',
    );
    expect(changeTitle('delete', undefined, 'UTC')).toBe('Deleted appointment');
  });
});
