// @vitest-environment happy-dom
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PRELOADER_REMOVE_AFTER_LOAD_MS,
  removePreloaderAfterLoad,
} from '../../../islands/kit/preloader';
import { Preloader } from '../../../screens/kit/Preloader';
import { applyPageCss } from './page-css';

function mountPreloader(): HTMLElement {
  document.body.innerHTML = renderToStaticMarkup(<Preloader />);
  return document.querySelector('.preloader')!;
}

function pretendReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { value: state, configurable: true });
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
  Reflect.deleteProperty(document, 'readyState');
});

describe('the start-up preloader (SPEC.md §2, §9)', () => {
  it('holds no text or image, so it can never be the Largest Contentful Paint', () => {
    const preloader = mountPreloader();
    expect(preloader.textContent).toBe('');
    expect(preloader.querySelector('img,svg,video,canvas')).toBeNull();
    expect(preloader.getAttribute('aria-hidden')).toBe('true');
  });

  it('stays until load, fades on load and is removed 1 s after load', () => {
    vi.useFakeTimers();
    pretendReadyState('loading');
    const preloader = mountPreloader();
    removePreloaderAfterLoad();
    vi.advanceTimersByTime(5000);
    expect(preloader.isConnected).toBe(true);
    expect(preloader.classList.contains('preloader--done')).toBe(false);

    window.dispatchEvent(new Event('load'));
    expect(preloader.classList.contains('preloader--done')).toBe(true);
    expect(PRELOADER_REMOVE_AFTER_LOAD_MS).toBe(1000);
    vi.advanceTimersByTime(999);
    expect(preloader.isConnected).toBe(true);
    vi.advanceTimersByTime(1);
    expect(preloader.isConnected).toBe(false);
  });

  it('is removed 1 s from now when the page had already loaded', () => {
    vi.useFakeTimers();
    pretendReadyState('complete');
    const preloader = mountPreloader();
    removePreloaderAfterLoad();
    vi.advanceTimersByTime(1000);
    expect(preloader.isConnected).toBe(false);
  });

  it('covers the screen only while the page has no content yet', () => {
    const removeCss = applyPageCss();
    const preloader = mountPreloader();
    expect(getComputedStyle(preloader).visibility).toBe('visible');
    expect(getComputedStyle(preloader).position).toBe('fixed');
    const main = document.createElement('main');
    main.className = 'page';
    document.body.appendChild(main);
    expect(getComputedStyle(preloader).visibility).toBe('hidden');
    expect(getComputedStyle(preloader).opacity).toBe('0');
    removeCss();
  });

  it('fades out over 0.2 s', () => {
    const removeCss = applyPageCss();
    const preloader = mountPreloader();
    preloader.classList.add('preloader--done');
    const { transition } = getComputedStyle(preloader);
    expect(transition).toMatch(/opacity \.2s/);
    expect(getComputedStyle(preloader).opacity).toBe('0');
    removeCss();
  });
});
