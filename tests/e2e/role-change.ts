import { expect, type Locator } from '@playwright/test';

/**
 * Saves `name`'s role in a role select of `scope` — Team access (`access-role-NAME`) or the Team table (`role-NAME`)
 * — and waits for the select to show it saved.
 */
export async function saveRole(scope: Locator, testIdPrefix: 'access-role-' | 'role-', name: string, role: string): Promise<void> {
  const select = scope.getByTestId(`${testIdPrefix}${name}`);
  await select.selectOption(role);
  await scope.getByTestId(`${testIdPrefix}${name}-save`).click();
  await expect(select).toHaveValue(role);
}
