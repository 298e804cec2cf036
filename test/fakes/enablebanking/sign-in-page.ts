/**
 * The bank's own sign-in page, as the end-user sees it after leaving Tributary: three links a browser
 * test clicks. Its icon is inline, as a real bank serves its own: a browser asks the fake's API nothing.
 */
export function signInPage(bankName: string, approve: string, cancel: string, fail: string): string {
  const name = bankName.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${name}: sign in</title></head>
<body>
  <main>
    <h1>${name}</h1>
    <p>Tributary asks to read your accounts' balances and transactions.</p>
    <a id="approve" role="button" href="${approve}">Approve</a>
    <a id="cancel" role="button" href="${cancel}">Cancel</a>
    <a id="error" role="button" href="${fail}">Simulate a bank error</a>
  </main>
</body>
</html>`;
}
