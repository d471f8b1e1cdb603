// The builder's pages, enhanced (docs/web.md#builder); every form works without this script.
// - The picture upload takes a file dropped on it, and uploads as soon as one is picked.
for (const form of document.querySelectorAll('form[data-upload]')) {
  const input = form.querySelector('input[type=file]');
  const zone = form.querySelector('.drop-zone');
  if (!input || !zone) continue;
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    if (e.dataTransfer?.files?.length) input.files = e.dataTransfer.files;
  });
}
