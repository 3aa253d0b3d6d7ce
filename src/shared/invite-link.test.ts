import { describe, expect, it } from 'vitest';
import { inviteLink } from './invite-link';

describe('inviteLink', () => {
  it('ends a judge’s link in #review and an annotator’s or owner’s in #annotate, the token escaped', () => {
    expect(inviteLink('http://10.0.0.5:5180', 'qp_a.b+c', 'judge')).toBe('http://10.0.0.5:5180/?token=qp_a.b%2Bc#review');
    expect(inviteLink('http://HOST:5180', 'qp_x.y', 'annotator')).toBe('http://HOST:5180/?token=qp_x.y#annotate');
    expect(inviteLink('https://labs.example.org/qpairs', 'qp_x.y', 'owner')).toBe('https://labs.example.org/qpairs/?token=qp_x.y#annotate');
  });
});
