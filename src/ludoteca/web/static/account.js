// The account page: sign up, log in, log out, change the password, the logged-in browsers,
// deletion. Every call answers JSON; an error's {"error": "..."} is shown as it is.

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
