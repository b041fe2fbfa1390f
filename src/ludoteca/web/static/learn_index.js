// The list of courses: how many steps of each this browser has done (kept by learn.js).

for (const el of document.querySelectorAll("[data-progress]")) {
  let done = [];
  try {
    done = JSON.parse(localStorage.getItem(`ludoteca-learn-${el.dataset.progress}`) || "[]");
  } catch {
    done = [];
  }
  if (done.length) el.textContent = `${done.length} steps done`;
}
