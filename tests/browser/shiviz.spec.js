// Export ShiViz log: the current run's history, as the server writes it, downloaded as a file
// ShiViz's default parser reads (its regex line, a blank line, then a host line and an event
// line per history event).
const fs = require('fs');
const { test, expect, settle, send } = require('./fixtures');

const REGEX_LINE = '(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)';

async function press(page, name) {
  await page.getByRole('button', { name }).click();
  await settle(page);
}

// Clicks a button that downloads a file; gives its name and text.
async function downloadBy(page, name, testInfo) {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name }).click();
  const download = await downloading;
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

test('Export ShiViz log downloads the history of the current run for ShiViz', async ({ page, request }, testInfo) => {
  // Not openPage: it counts the demo buttons, which is no concern of this test.
  await page.goto('/');
  await settle(page);
  await send(page, 'P2', 'P1', 40);
  await press(page, 'Read Balance of P1');
  await press(page, 'Start Snapshot at P1');
  await send(page, 'P1', 'P3', 30);
  await press(page, /Deliver Next/);
  await press(page, /Deliver Next/);

  const shiviz = await downloadBy(page, 'Export ShiViz log', testInfo);
  expect(shiviz.name).toBe('cutline-shiviz.log');
  const lines = shiviz.text.split('\n');
  expect(lines[0]).toBe(REGEX_LINE);
  expect(lines[1]).toBe('');
  expect(lines[lines.length - 1]).toBe('');  // the file ends with a line break

  // The same run's history, as the server reports it for the page's scenario.
  const scenario = await downloadBy(page, /Export scenario/, testInfo);
  const res = await request.post('/api/run', { data: { scenario: scenario.text } });
  expect(res.ok()).toBeTruthy();
  const { history } = await res.json();
  expect(history.length).toBeGreaterThan(10);
  const events = lines.slice(2, -1);
  expect(events.length).toBe(2 * history.length);
  const own = {};
  history.forEach((event, i) => {
    const m = events[2 * i].match(/^(\S*) ({.*})$/);
    expect(m, events[2 * i]).not.toBeNull();
    expect(m[1]).toBe(event.branch);
    const clock = JSON.parse(m[2]);
    own[m[1]] = (own[m[1]] || 0) + 1;
    expect(clock[m[1]]).toBe(own[m[1]]);  // each host counts its own events 1, 2, 3, ...
    expect(events[2 * i + 1].length).toBeGreaterThan(0);
  });
  expect(shiviz.text).toContain('\nP2 sends $40 to P1 (#1)\n');
  expect(shiviz.text).toContain('\nP1 records $100 for snapshot 1 (on its own)\n');

  // In Japanese the button says so; the log stays in English.
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  const ja = await downloadBy(page, 'ShiVizログを書き出す', testInfo);
  expect(ja.name).toBe('cutline-shiviz.log');
  expect(ja.text).toBe(shiviz.text);
});
