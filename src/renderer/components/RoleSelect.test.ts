/**
 * A role picked in the Team table while it still showed the old role (another panel had just saved one) was
 * reset when the table caught up: the choice was dropped without a word and its Save vanished.
 */
import { describe, expect, it } from 'vitest';
import { choiceAfterSavedRoleChange } from './RoleSelect';

describe('choiceAfterSavedRoleChange', () => {
  it('keeps a choice not yet saved when the saved role changes underneath it', () => {
    // Shown annotator (stale), owner picked; the table now learns jack is a judge: owner stays picked, Save still offered.
    expect(choiceAfterSavedRoleChange('annotator', 'judge', 'owner')).toBe('owner');
  });

  it('follows the saved role when no choice is under way', () => {
    expect(choiceAfterSavedRoleChange('annotator', 'judge', 'annotator')).toBe('judge');
  });

  it('a choice the new saved role equals is simply no change any more', () => {
    expect(choiceAfterSavedRoleChange('annotator', 'judge', 'judge')).toBe('judge');
  });
});
