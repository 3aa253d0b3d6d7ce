/** Why an agreement statistic is undefined, in the words every statistic and the report give. */

/** No item has labels from two annotators (percent agreement, Fleiss' kappa, Gwet's AC1). */
export const NO_ITEM_LABELED_TWICE = 'no item has labels from two annotators';

/** A pair of annotators labeled no item in common (their percent agreement, Cohen's kappa, its CI). */
export const NO_ITEM_IN_COMMON = 'the two annotators labeled no item in common';
