// The game clocks' arithmetic and display. Pure logic, no DOM (tested by Node, tests/js/).

// Seconds left on ``seat``'s clock at server time ``now`` (null: no clock for that seat).
// ``clock`` is the API's: remaining seconds per seat, the seat whose clock runs, since when.
export function secondsLeft(clock, seat, now) {
  const base = clock.remaining[seat];
  if (base === null || base === undefined) return null;
  if (clock.running !== seat || clock.since === null) return base;
  return base - (now - clock.since);
}

// "2 d 3 h", "1 h 05 min", "4:07", and tenths under ten seconds ("0:09.4"); never negative.
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  const whole = Math.floor(s);
  const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  return s < 10 ? `${text}.${Math.floor((s * 10) % 10)}` : text;
}

// The clock a new-game form asks for, from its choice ``value``: "600+5" -> {initial: 600,
// increment: 5}; "day:86400" -> {per_move: 86400}; "" -> null (no clock); "custom" -> the
// seconds ``custom()`` gives ({initial, increment}, as typed).
export function clockOf(value, custom = () => ({})) {
  if (!value) return null;
  if (value === "custom") {
    const typed = custom();
    return { initial: Number(typed.initial), increment: Number(typed.increment) };
  }
  if (value.startsWith("day:")) return { per_move: Number(value.slice(4)) };
  const [initial, increment] = value.split("+").map(Number);
  return { initial, increment };
}
