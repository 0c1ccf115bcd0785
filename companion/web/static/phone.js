// Phoenix Companion: a player's page on their phone. The page's data comes from the table as
// JSON, every text already worded in the reader's language; it is shown as text only
// (textContent, never markup: a player's name is text). Live by server-sent events; a Diplomacy
// bonus can be answered here. No external resource, no inline script (the server's CSP).
'use strict';

(function () {
  const STORE = 'phoenix-language';
  const SPECIES = ['teal', 'pink', 'brown', 'gold', 'human'];
  const COLORS = ['red', 'blue', 'yellow', 'green'];
  const RETRY_MS = [2000, 5000, 10000, 30000]; // a closed live page's next tries
  const FALLBACK_WORDS = { title: 'Phoenix Companion', offline: 'Connection lost - trying again…',
    sending: 'Sending…' };

  const found = location.pathname.match(/^\/p\/([A-Za-z0-9_-]+)\/?$/);
  const base = '/p/' + (found ? found[1] : '');
  let page = null; // the page shown
  let live = null; // its EventSource
  let known = ['en', 'de']; // the languages the table speaks (the page's own list, once read)
  let chosen = null; // the reader's choice of language (kept in localStorage too)
  let gone = false; // the link ended: nothing more is asked
  let sending = false;
  let replyUntil = -1; // the reply to an answer is shown up to this version
  let retries = 0;
  let retryTimer = null;

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function words() { return Object.assign({}, FALLBACK_WORDS, page ? page.words : {}); }

  function stored() {
    try { return localStorage.getItem(STORE); } catch (e) { return null; }
  }

  function store(code) {
    try { localStorage.setItem(STORE, code); } catch (e) { /* this visit only */ }
  }

  function language() {
    for (const code of [chosen, stored()]) {
      if (code && known.includes(code)) return code;
    }
    const wanted = navigator.languages && navigator.languages.length
      ? navigator.languages : [navigator.language || ''];
    for (const tag of wanted) {
      const code = String(tag).split('-')[0].toLowerCase();
      if (known.includes(code)) return code;
    }
    return 'en';
  }

  function setStatus(text, kind) {
    const status = $('status');
    status.textContent = text || '';
    status.hidden = !text;
    status.className = 'status' + (kind ? ' ' + kind : '');
  }

  // the live page

  function connect() {
    if (gone) return;
    clearTimeout(retryTimer);
    if (live) live.close();
    const source = new EventSource(base + '/live?lang=' + encodeURIComponent(language()));
    live = source;
    source.addEventListener('page', (e) => {
      retries = 0;
      setStatus('');
      render(JSON.parse(e.data));
    });
    source.addEventListener('gone', (e) => {
      let message = '';
      try { message = JSON.parse(e.data).message; } catch (err) { /* the words are missing */ }
      end(message);
    });
    source.addEventListener('error', () => {
      if (gone || source !== live) return;
      setStatus(words().offline, 'offline');
      if (source.readyState === EventSource.CLOSED) { // refused: the browser will not retry
        live = null;
        later();
      }
    });
  }

  function later() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(check, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
    retries += 1;
  }

  // after the live page was refused: is the link still good (then live again), or gone?
  async function check() {
    try {
      const reply = await fetch(base + '/page?lang=' + encodeURIComponent(language()),
        { cache: 'no-store', credentials: 'same-origin' });
      if (reply.status === 403) {
        end((await reply.json()).message);
        return;
      }
      if (reply.ok) {
        render(await reply.json());
        connect();
        return;
      }
    } catch (e) { /* no connection yet */ }
    later();
  }

  function end(message) {
    gone = true;
    clearTimeout(retryTimer);
    if (live) live.close();
    live = null;
    document.body.classList.add('gone');
    setStatus(message || '', 'gone');
    setButtons(false);
  }

  // an answer

  async function send(question, choice) {
    if (sending || gone || !page) return;
    sending = true;
    replyUntil = page.version + 1;
    setButtons(false);
    showReply(words().sending, 'sending');
    try {
      const reply = await fetch(base + '/answer?lang=' + encodeURIComponent(language()), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ version: page.version, track: question.track,
          levels: choice.levels }),
        cache: 'no-store',
        credentials: 'same-origin',
      });
      let message = '';
      try { message = (await reply.json()).message || ''; } catch (e) { /* no words */ }
      showReply(message, reply.ok ? 'applied' : 'refused');
    } catch (e) {
      showReply(words().offline, 'refused');
    } finally {
      sending = false;
      setButtons(true);
    }
  }

  function showReply(text, kind) {
    const line = $('reply');
    line.textContent = text || '';
    line.hidden = !text;
    line.className = 'reply' + (kind ? ' ' + kind : '');
    line.dataset.state = text ? kind || '' : ''; // sending, applied or refused (for tests)
  }

  function setButtons(enabled) {
    for (const button of document.querySelectorAll('#question .choice')) {
      button.disabled = !enabled || sending || gone || button.classList.contains('refused');
    }
  }

  // the page

  function render(next) {
    page = next;
    const w = words();
    window.phoenixWords = Object.freeze(w); // the page's words, for browser tests to read
    const me = next.me || {};
    if (Array.isArray(next.languages) && next.languages.length) {
      known = next.languages.map((pair) => pair[0]);
    }
    document.documentElement.lang = next.lang || 'en';
    document.title = me.name ? me.name + ' · ' + w.title : w.title;

    $('band').className = 'band' + colorClass(me.color);
    $('me-name').textContent = me.name || '';
    $('game').textContent = next.game || '';
    renderSwitch(next);
    renderQuestion(next, w);
    const waiting = $('waiting');
    waiting.textContent = next.waiting || '';
    waiting.hidden = Boolean(next.question) || !next.waiting;
    const turn = $('turn');
    turn.textContent = next.turn || '';
    turn.classList.toggle('my-turn', Boolean(next.my_turn));
    turn.classList.toggle('over', Boolean(next.over));

    fill($('counters'), me.counters || [], (text) => el('li', 'counter', text));
    $('points').textContent = me.points || '';
    $('projected').textContent = me.projected || '';
    $('diplomacy-title').textContent = w.diplomacy || '';
    fill($('diplomacy'), me.diplomacy || [], diplomacyRow);
    $('ships-title').textContent = w.ships || '';
    fill($('ships'), me.ships || [], shipRow);
    $('station-title').textContent = w.station || '';
    renderStation(me.station || {});
    $('others-title').textContent = w.others || '';
    fill($('others'), next.others || [], otherRow);
    $('log-title').textContent = w.log || '';
    fill($('log'), next.log || [], (text) => el('li', '', text));

    if (!sending && next.version > replyUntil) showReply('');
    $('main').hidden = false;
    if (!gone && live && live.readyState === EventSource.OPEN) setStatus('');
    document.body.dataset.version = String(next.version);
  }

  function fill(list, items, make) {
    list.replaceChildren(...items.map(make));
  }

  function colorClass(color) {
    return COLORS.includes(color) ? ' color-' + color : '';
  }

  function renderSwitch(next) {
    const button = $('lang-switch');
    const languages = next.languages || [];
    const at = languages.findIndex((pair) => pair[0] === next.lang);
    const other = languages.length > 1 ? languages[(at + 1) % languages.length] : null;
    button.hidden = !other;
    if (!other) return;
    button.textContent = other[1];
    button.lang = other[0];
    button.dataset.lang = other[0];
  }

  function renderQuestion(next, w) {
    const box = $('question');
    const question = next.question;
    box.hidden = !question;
    if (!question) {
      box.replaceChildren();
      return;
    }
    const choices = el('div', 'choices');
    for (const choice of question.choices || []) {
      const button = el('button', 'choice');
      button.type = 'button';
      button.dataset.levels = (choice.levels || []).join(',');
      button.append(el('span', 'label', choice.label));
      if (!choice.allowed) {
        button.classList.add('refused');
        if (choice.reason) button.append(el('span', 'reason', choice.reason));
      }
      button.disabled = !choice.allowed || sending || gone;
      button.addEventListener('click', () => send(question, choice));
      choices.append(button);
    }
    const parts = [el('h2', 'question-head', w.question), el('p', 'question-title', question.title),
      choices];
    if (question.note) parts.push(el('p', 'note', question.note));
    box.replaceChildren(...parts);
  }

  function diplomacyRow(standing) {
    const row = el('li', 'track');
    const level = Number(standing.level) || 0;
    const pips = el('span', 'pips');
    // a pip per level up to the track's top (as the catalogue has it; unknown: the level)
    for (let n = 1; n <= Math.max(Number(standing.top) || 0, level); n += 1) {
      pips.append(el('span', n <= level ? 'pip on' : 'pip'));
    }
    row.append(el('span', 'name', standing.track), pips, el('span', 'level', level));
    return row;
  }

  function shipRow(ship) {
    const row = el('li', ship.used ? 'ship used' : 'ship');
    row.dataset.used = ship.used ? 'true' : 'false';
    row.append(el('span', 'mark', ship.used ? '●' : '○'), el('span', 'name', ship.name));
    if (ship.note) row.append(el('span', 'note', ship.note));
    return row;
  }

  function quarters(list) {
    const row = el('div', 'quarters');
    for (const quarter of list || []) {
      const dot = el('span', 'quarter', quarter.letter || '');
      if (SPECIES.includes(quarter.species)) dot.classList.add('species-' + quarter.species);
      else dot.classList.add('empty');
      if (quarter.species && !quarter.active) dot.classList.add('inactive');
      row.append(dot);
    }
    return row;
  }

  function abilities(list) {
    const lines = el('ul', 'abilities');
    for (const text of list || []) lines.append(el('li', '', text));
    return lines;
  }

  function renderStation(station) {
    const parts = [];
    if (station.hub) {
      const hub = el('div', 'hub');
      hub.append(el('h3', '', station.hub.title), quarters(station.hub.quarters),
        abilities(station.hub.abilities));
      parts.push(hub);
    }
    for (const wing of station.wings || []) {
      const box = el('div', 'wing' + (SPECIES.includes(wing.color) ? ' wing-' + wing.color : ''));
      box.append(el('h3', '', wing.title));
      for (const sector of wing.sectors || []) {
        const part = el('div', 'sector');
        part.dataset.title = sector.title || '';
        part.append(el('h4', '', sector.title), quarters(sector.quarters),
          abilities(sector.abilities));
        box.append(part);
      }
      parts.push(box);
    }
    $('station').replaceChildren(...parts);
  }

  function otherRow(other) {
    const row = el('li', 'other');
    const head = el('div', 'head');
    head.append(el('span', 'swatch' + colorClass(other.color)), el('strong', 'name', other.name));
    row.append(head, el('div', 'line', other.line));
    if (other.diplomacy) row.append(el('div', 'standing', other.diplomacy));
    return row;
  }

  // start

  $('lang-switch').addEventListener('click', (e) => {
    const code = e.currentTarget.dataset.lang;
    if (!code || gone) return;
    chosen = code;
    store(code);
    connect();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !gone && !live) connect();
  });
  connect();
})();
