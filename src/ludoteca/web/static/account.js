// The account page: sign up, log in (with the password or a passkey), log out, change the
// password, the passkeys, the logged-in browsers, deletion. Every call answers JSON; an error's
// {"error": "..."} is shown as it is.

const errorBox = document.getElementById("account-error");

async function call(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

function handle(id, action) {
  const form = document.getElementById(id);
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    try {
      await action(form);
    } catch (error) {
      errorBox.textContent = error.message;
    }
  });
}

for (const id of ["login-form", "signup-form"]) {
  handle(id, async (form) => {
    await call("POST", form.dataset.endpoint, fields(form));
    location.reload();
  });
}
handle("logout-form", async () => {
  await call("POST", "/api/logout");
  location.reload();
});
handle("password-form", async (form) => {
  await call("POST", "/api/account/password", fields(form));
  form.reset();
  form.querySelector(".status").textContent = "Password changed; other browsers are logged out.";
  await showSessions();
});
handle("delete-form", async (form) => {
  if (!confirm("Delete this account for good?")) return;
  await call("DELETE", "/api/account", fields(form));
  location.assign("/");
});

// -- passkeys (WebAuthn): the server's options are JSON, with base64url for the binary fields --

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function withBinaryIds(list) {
  return (list || []).map((item) => ({ ...item, id: fromBase64url(item.id) }));
}

function passkeysOffered() {
  if (window.PublicKeyCredential && navigator.credentials) return true;
  errorBox.textContent =
    "This browser offers no passkeys here (they need HTTPS, or localhost, and a browser that has them).";
  return false;
}

// The authenticator's answer as JSON (what the webauthn library on the server reads).
function credentialJSON(credential) {
  const response = credential.response;
  const answer = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    response: { clientDataJSON: toBase64url(response.clientDataJSON) },
  };
  if (response.attestationObject) {
    answer.response.attestationObject = toBase64url(response.attestationObject);
    answer.response.transports = response.getTransports ? response.getTransports() : [];
  } else {
    answer.response.authenticatorData = toBase64url(response.authenticatorData);
    answer.response.signature = toBase64url(response.signature);
    if (response.userHandle) answer.response.userHandle = toBase64url(response.userHandle);
  }
  return answer;
}

handle("passkey-form", async (form) => {
  if (!passkeysOffered()) return;
  const options = await call("POST", "/api/account/passkeys/options");
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: withBinaryIds(options.excludeCredentials),
  };
  const credential = await navigator.credentials.create({ publicKey });
  await call("POST", "/api/account/passkeys", {
    credential: credentialJSON(credential),
    name: fields(form).name,
  });
  form.querySelector(".status").textContent = "Passkey added.";
  await showPasskeys();
});

handle("passkey-login-form", async () => {
  if (!passkeysOffered()) return;
  const options = await call("POST", "/api/login/passkey/options");
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: withBinaryIds(options.allowCredentials),
  };
  const credential = await navigator.credentials.get({ publicKey });
  await call("POST", "/api/login/passkey", { credential: credentialJSON(credential) });
  location.reload();
});

async function showPasskeys() {
  const list = document.getElementById("passkey-list");
  if (!list) return;
  const { passkeys } = await call("GET", "/api/account/passkeys");
  if (passkeys.length === 0) {
    const item = document.createElement("li");
    item.className = "empty";
    item.textContent = "No passkey yet.";
    list.replaceChildren(item);
    return;
  }
  list.replaceChildren(
    ...passkeys.map((passkey) => {
      const item = document.createElement("li");
      const used = passkey.used ? `last used ${passkey.used.slice(0, 16).replace("T", " ")}` : "never used";
      item.textContent = `${passkey.name} — added ${passkey.created.slice(0, 10)}, ${used}`;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Remove";
      button.setAttribute("aria-label", `Remove the passkey ${passkey.name}`);
      button.addEventListener("click", async () => {
        try {
          await call("DELETE", `/api/account/passkeys/${passkey.id}`);
          await showPasskeys();
        } catch (error) {
          errorBox.textContent = error.message;
        }
      });
      item.append(" ", button);
      return item;
    }),
  );
}

showPasskeys().catch((error) => {
  errorBox.textContent = error.message;
});

async function showSessions() {
  const list = document.getElementById("account-sessions");
  if (!list) return;
  const account = await call("GET", "/api/account");
  list.replaceChildren(
    ...account.sessions.map((login) => {
      const item = document.createElement("li");
      const where = [login.address, login.agent].filter(Boolean).join(" · ");
      item.textContent = `${login.current ? "This browser" : "Seen " + login.seen.slice(0, 16).replace("T", " ")} — ${where}`;
      if (!login.current) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Log out";
        button.addEventListener("click", async () => {
          try {
            await call("POST", `/api/account/sessions/${login.id}/revoke`);
            await showSessions();
          } catch (error) {
            errorBox.textContent = error.message;
          }
        });
        item.append(" ", button);
      }
      return item;
    }),
  );
}

showSessions().catch((error) => {
  errorBox.textContent = error.message;
});
