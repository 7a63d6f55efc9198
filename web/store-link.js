// The bank page links to the store's page only when the server shows a
// store (`cutline serve --store FILE`).
fetch('api/health')
  .then((res) => (res.ok ? res.json() : null))
  .then((health) => {
    if (health && health.store) document.getElementById('store-link').hidden = false;
  })
  .catch(() => {});
