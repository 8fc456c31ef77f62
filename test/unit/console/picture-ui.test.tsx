// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { $draft } from '../../../console/kit/stores/draft';
import { holdEveryLanguage } from '../../../scripts/every-language';
import type { ContentDocument } from '../../../shared/config/content';
import { CONSOLE_PICTURES_PATH, type PictureRecord } from '../../../shared/console-api/pictures';
import { PICTURE_DESCRIPTIONS as ALT } from '../../fixtures/picture-descriptions';
import {
  eachOnAFreshEditor,
  lastDrawn,
  openEditor,
  reply,
  stubContentWorker,
} from './content-worker';

// The catalogue holds every language: in Node they come from the source files.
holdEveryLanguage();

/**
 * The landing's picture section in the content editor, against the worker's catalogue and a
 * library answered as test/worker/pictures/ proves the worker answers: a picture uploaded is
 * chosen and described in every shipped language, each description in its direction; a library
 * picture is deleted after a confirmation, the draft sent with the delete, and the worker's
 * refusal of one the draft shows said where. A real file's upload and its publish to a visitor are
 * test/browser/console-content.test.ts's.
 */

const DAY = '2026-12-02';

const record = (width: number, height: number): PictureRecord => ({
  id: `${width}`.padEnd(64, 'a'),
  type: 'png',
  width,
  height,
  bytes: 2048,
  uploadedBy: 'marketer@example.com',
  uploadedAt: `${DAY}T06:00:00.000Z`,
  thumbnail: `/pictures/${width}-320.jpeg`,
});

/** The library's calls: `pictures` listed, an upload answered with `uploaded`, deletes kept. */
function stubLibrary(pictures: PictureRecord[], uploaded?: PictureRecord) {
  const deletes: { id: string; draft: ContentDocument | null }[] = [];
  stubContentWorker((url, init) => {
    if (url === CONSOLE_PICTURES_PATH && init?.method === 'POST') {
      return reply({ ok: true, picture: uploaded, created: true });
    }
    if (url === CONSOLE_PICTURES_PATH) return reply({ ok: true, pictures });
    if (url.startsWith(`${CONSOLE_PICTURES_PATH}/`) && init?.method === 'DELETE') {
      const id = url.slice(CONSOLE_PICTURES_PATH.length + 1);
      const { draft } = JSON.parse(String(init.body)) as { draft: ContentDocument | null };
      deletes.push({ id, draft });
      // The worker refuses a picture the sent draft shows, saying where (delete-route.ts).
      if (draft?.screens.one_pager?.picture?.id === id) {
        const message =
          'This picture is in use in your draft: screen one_pager. Choose another picture there (and publish) before deleting it.';
        return reply({ ok: false, error: 'picture_in_use', message }, 409);
      }
      return reply({ ok: true, deleted: id });
    }
    return undefined;
  });
  return deletes;
}

/** The Content page with the landing's picture section added. */
async function withPictureSection() {
  const user = userEvent.setup();
  const content = await openEditor();
  await user.selectOptions(content.getByLabelText('Add a section'), 'picture');
  await user.click(content.getByRole('button', { name: 'Add' }));
  const fields = within(await content.findByRole('group', { name: 'Picture' }));
  return { user, content, fields };
}

const shown = () => $draft.get()?.document.content.screens.one_pager?.picture;

eachOnAFreshEditor();

describe('a picture on the landing', () => {
  it('is uploaded and chosen, described in every language in its direction, and drawn', async () => {
    const family = record(800, 500);
    stubLibrary([], family);
    const { user, fields } = await withPictureSection();
    await user.upload(
      fields.getByLabelText(/^Upload a picture/),
      new File([new Uint8Array(8)], 'family.png', { type: 'image/png' }),
    );
    await fields.findByText('Uploaded.');
    const library = fields.getByRole('radiogroup', { name: 'Picture library' });
    expect((within(library).getAllByRole('radio')[0] as HTMLInputElement).checked).toBe(true);
    expect(shown()).toEqual({ id: family.id, width: 800, height: 500, alt: {} });

    // A description per language: a publish needs each.
    for (const [language, text] of Object.entries(ALT)) {
      const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
      const field = fields.getByLabelText(`Description in ${name}`);
      expect(field.getAttribute('lang')).toBe(language);
      expect(field.getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      fireEvent.change(field, { target: { value: text } });
    }
    expect(shown()?.alt).toEqual(ALT);
    // The preview asks the worker to draw the picture with its descriptions.
    await lastDrawn({
      screen: 'one_pager',
      content: { screens: { one_pager: { picture: shown() } } },
    });
  });
});

describe('a library picture', () => {
  it('is deleted after a confirmation, never one the draft shows, focus kept where it was', async () => {
    const [small, large] = [record(640, 400), record(720, 450)];
    const deletes = stubLibrary([small!, large!]);
    const { user, content, fields } = await withPictureSection();
    // The draft shows the larger.
    await user.click(await fields.findByRole('radio', { name: `720×450, ${DAY}` }));
    expect(shown()?.id).toBe(large?.id);

    // Its delete is refused by the worker, saying where; it stays.
    await user.click(fields.getByRole('button', { name: `Delete picture 720×450, ${DAY}` }));
    const dialog = within(screen.getByRole('dialog', { name: `Delete picture 720×450, ${DAY}?` }));
    await user.click(dialog.getByRole('button', { name: 'Delete picture' }));
    await content.findByText(/in use in your draft: screen one_pager/);
    expect(deletes).toEqual([{ id: large?.id, draft: $draft.get()?.document.content }]);
    expect(fields.getByText(`720×450, ${DAY}`)).toBeTruthy();

    // The other, by keyboard: Enter on its Delete, Escape keeps it, then Delete confirms.
    const other = fields.getByRole('button', { name: `Delete picture 640×400, ${DAY}` });
    other.focus();
    await user.keyboard('{Enter}');
    // Escape: a browser's modal dialog then fires `cancel`, which happy-dom leaves to the test.
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(other));
    expect(deletes).toHaveLength(1);
    await user.keyboard('{Enter}');
    screen.getByRole('button', { name: 'Delete picture' }).focus();
    await user.keyboard('{Enter}');
    await content.findByText('Picture deleted.');
    expect(deletes.at(-1)?.id).toBe(small?.id);
    expect(fields.queryByRole('button', { name: `Delete picture 640×400, ${DAY}` })).toBeNull();
    await waitFor(() => expect(document.activeElement?.id).toBe('content-picture-upload'));
  });
});
