import type { IslandFailureCopy } from './protocol';

/**
 * Puts a message with a Reload button in place of an island whose script did not load (SPEC.md
 * §8), in plain DOM: it shows precisely when React or the island's code may be what failed. The
 * message is an alert, so it is announced; Reload is a real button, so it is keyboard-usable,
 * and takes the focus if the island had it. While `reload` runs, the button is busy and further
 * presses wait for it. Returns what puts the island's server HTML back, as it was, for
 * hydration.
 */
export function showIslandFailure(
  element: Element,
  copy: IslandFailureCopy,
  reload: () => Promise<void>,
): () => void {
  const serverNodes = [...element.childNodes];
  const hadFocus = element.contains(document.activeElement);
  const box = document.createElement('div');
  box.className = 'island-failure';
  const text = document.createElement('p');
  text.className = 'island-failure__text';
  text.setAttribute('role', 'alert');
  text.textContent = copy.message;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button--primary';
  button.textContent = copy.reload;
  button.addEventListener('click', () => {
    if (button.getAttribute('aria-busy')) return;
    // Busy but still in the tab order (aria-disabled, not disabled): the focus stays on it.
    button.setAttribute('aria-busy', 'true');
    button.setAttribute('aria-disabled', 'true');
    void reload().finally(() => {
      button.removeAttribute('aria-busy');
      button.removeAttribute('aria-disabled');
    });
  });
  box.append(text, button);
  element.replaceChildren(box);
  if (hadFocus) button.focus();
  return () => {
    const focused = element.contains(document.activeElement);
    element.replaceChildren(...serverNodes);
    // The island takes the focus the Reload button had, rather than the page's start.
    if (focused && element instanceof HTMLElement) {
      element.tabIndex = -1;
      element.focus();
    }
  };
}
