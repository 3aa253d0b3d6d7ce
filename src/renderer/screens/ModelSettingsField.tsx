/**
 * The Models form's settings: a JSON object of the chosen kind's settings over its defaults (what
 * `qpairs train --config` takes), with the kind's settings and defaults listed beside it.
 */
import type { ReactNode } from 'react';
import { FieldHint, hintIdOf } from '../components/FieldHint';

export function ModelSettingsField({
  kind,
  text,
  onChange,
  error,
  settings,
}: {
  kind: string;
  text: string;
  onChange: (text: string) => void;
  error: string | null;
  settings: Record<string, unknown> | undefined;
}): ReactNode {
  return (
    <div className="wide model-settings">
      <label>
        Settings <span className="optional">optional, JSON: only what differs from the defaults</span>
        <textarea
          data-testid="model-config"
          rows={2}
          spellCheck={false}
          placeholder={settings ? `e.g. ${JSON.stringify(Object.fromEntries(Object.entries(settings).slice(0, 1)))}` : '{}'}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={hintIdOf('model-config')}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <FieldHint testId="model-config" error={error}>
        empty = the defaults; the same settings as <code>qpairs train --config</code>
      </FieldHint>
      {settings && (
        <details className="small" data-testid="model-settings-defaults">
          <summary>{kind}’s settings and their defaults</summary>
          <dl className="settings-list">
            {Object.entries(settings).map(([key, value]) => (
              <div key={key}>
                <dt>
                  <code>{key}</code>
                </dt>
                <dd>
                  <code>{JSON.stringify(value)}</code>
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  );
}
