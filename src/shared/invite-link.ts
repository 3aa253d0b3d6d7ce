/**
 * The link that signs a person in (annotator.invite: serve mode's answer, the CLI's `annotators
 * invite`, the Team access panel). It ends with the screen their work starts on: Review for a
 * judge (Annotate would only tell them to go there), Annotate for an annotator or an owner.
 */
export function inviteLink(base: string, token: string, role: 'annotator' | 'judge' | 'owner'): string {
  return `${base}/?token=${encodeURIComponent(token)}#${role === 'judge' ? 'review' : 'annotate'}`;
}
