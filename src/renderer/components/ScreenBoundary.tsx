/**
 * Keeps a screen's own failure to that screen. Without it, an exception while a screen renders (a
 * bug, or data shaped as the screen does not expect: a model row damaged or written otherwise) made
 * React remove the whole app: a blank window, no tabs, nothing to do but restart. The header and
 * tabs now stay, the screen says what failed, and it can be shown again (switching tabs does too:
 * App keys it by tab).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ScreenBoundaryProps {
  /** The screen's name, for the log. */
  screen: string;
  children: ReactNode;
}

interface ScreenBoundaryState {
  error: Error | null;
}

export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ScreenBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`the ${this.props.screen} screen failed:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="error-box" role="alert" data-testid="screen-error">
        <p>
          <strong>This screen stopped: {error.message || error.name}.</strong> What was saved stays saved, and the other screens still work
          (the tabs above). This is a bug in QPairs: please report it with this message.
        </p>
        <button type="button" data-testid="screen-error-retry" onClick={() => this.setState({ error: null })}>
          Show the screen again
        </button>
      </div>
    );
  }
}
