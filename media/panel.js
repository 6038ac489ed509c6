// @ts-check
// The statistics panel's script: says `ready`, then draws every snapshot the host sends. DOM APIs only (no innerHTML),
// so file names and test output can never become markup.

/** @typedef {import('../src/shared/protocol').HostMessage} HostMessage */
/** @typedef {import('../src/shared/protocol').PanelMessage} PanelMessage */
/** @typedef {import('../src/shared/protocol').StatsSnapshot} StatsSnapshot */
/** @typedef {import('../src/shared/protocol').TaskView} TaskView */

(function () {
  // @ts-expect-error acquireVsCodeApi is injected by VS Code into webviews.
  const vscode = acquireVsCodeApi();
  const SVG = 'http://www.w3.org/2000/svg';
  /** @type {StatsSnapshot | undefined} The last snapshot: a progress message redraws the table from it, never a part. */
  let last;
  /** @type {import('../src/shared/protocol').RunningView | undefined} */
  let running;

  /** @param {PanelMessage} message */
  function send(message) {
    vscode.postMessage(message);
  }

  /**
   * @param {string} tag
   * @param {string} [className]
   * @param {string} [text]
   * @returns {HTMLElement}
   */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /**
   * @param {string} tag
   * @param {Record<string, string | number>} attributes
   * @returns {SVGElement}
   */
  function svg(tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    return node;
  }

  /** @param {number} value */
  function pct(value) {
    return Number.isFinite(value) ? `${Math.round(value * 100)}%` : '–';
  }

  /** @param {string} id */
  function section(id) {
    const node = /** @type {HTMLElement} */ (document.getElementById(id));
    node.replaceChildren();
    return node;
  }

  /**
   * The header's counts, in the table's terms: every listed task, and how many of them the statistics count (a task
   * whose tests passed before any fix, or that got no samples, is listed but says nothing about the candidates).
   * @param {StatsSnapshot} s
   */
  function countsLine(s) {
    const listed = `${s.table.length} task${s.table.length === 1 ? '' : 's'}`;
    const notCounted = s.table.length - s.tasks;
    if (notCounted === 0) return `${listed}, ${s.samples} samples`;
    return `${listed}: ${s.tasks} counted (${s.samples} samples), ${notCounted} not (tests passed before the fix, or no samples)`;
  }

  /** @param {StatsSnapshot} s */
  function drawSummary(s) {
    const root = section('summary');
    if (s.table.length === 0) {
      root.append(el('p', 'muted', 'No tasks yet. Select the buggy code and press Ctrl+Alt+. (Cmd+Alt+. on a Mac), or right-click and choose "Suggest Verified Fix". After a test fails in the terminal, the Quick Fix (Ctrl+.) on the line its stack names offers it too.'));
      return;
    }
    root.append(el('p', 'counts', countsLine(s)));
    if (s.tasks === 0) return;
    const table = el('table', 'headline');
    for (const h of s.headline) {
      const row = el('tr');
      row.title = h.explainPassAtK;
      row.append(el('th', '', `pass@${h.k}`), el('td', 'big', pct(h.passAtK)), el('td', 'muted', h.passAtKInterval));
      table.append(row);
    }
    const last = s.headline[s.headline.length - 1];
    const hat = el('tr');
    hat.title = last.explainPassHatK;
    hat.append(el('th', '', `pass^${last.k}`), el('td', 'big', pct(last.passHatK)), el('td', 'muted', last.passHatKInterval));
    table.append(hat);
    root.append(table);
    if (last.tasksLeftOut > 0) root.append(el('p', 'muted', `${last.tasksLeftOut} task(s) with fewer than ${last.k} samples are left out of k = ${last.k}.`));
    if (s.lostSamples > 0) root.append(el('p', 'muted', `${s.lostSamples} sample(s) could not be obtained and are not counted.`));
  }

  /** @param {StatsSnapshot} s */
  function drawChart(s) {
    const root = section('chart');
    if (s.curves.length === 0) return;
    root.append(el('h2', '', 'pass@k and pass^k against k'));
    const width = 300;
    const height = 150;
    const pad = { left: 32, right: 8, top: 8, bottom: 24 };
    const maxK = s.curves[s.curves.length - 1].k;
    /** @param {number} k */
    const x = (k) => pad.left + (maxK === 1 ? (width - pad.left - pad.right) / 2 : ((k - 1) / (maxK - 1)) * (width - pad.left - pad.right));
    /** @param {number} p */
    const y = (p) => pad.top + (1 - p) * (height - pad.top - pad.bottom);
    const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': 'pass@k, pass^k and plug-in pass@k for k from 1 to n' });
    for (const p of [0, 0.5, 1]) {
      chart.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y(p), y2: y(p), class: 'gridline' }));
      const label = svg('text', { x: pad.left - 4, y: y(p) + 3, class: 'axis', 'text-anchor': 'end' });
      label.textContent = pct(p);
      chart.append(label);
    }
    for (const k of [...new Set([1, Math.ceil(maxK / 2), maxK])]) {
      // The end labels are anchored inwards so they are never clipped by the chart's edges.
      const anchor = maxK > 1 && k === 1 ? 'start' : maxK > 1 && k === maxK ? 'end' : 'middle';
      const label = svg('text', { x: x(k), y: height - 8, class: 'axis', 'text-anchor': anchor });
      label.textContent = `k=${k}`;
      chart.append(label);
    }
    /** @type {Array<[keyof import('../src/shared/protocol').CurvePointView, string]>} */
    const series = [['plugInPassAtK', 'curve plugin'], ['passHatK', 'curve hat'], ['passAtK', 'curve at']];
    for (const [key, className] of series) {
      const points = s.curves.filter((c) => Number.isFinite(c[key])).map((c) => `${x(c.k).toFixed(1)},${y(c[key]).toFixed(1)}`);
      const line = svg('polyline', { points: points.join(' '), class: className, fill: 'none' });
      if (key === 'plugInPassAtK') line.setAttribute('stroke-dasharray', '4 3');
      chart.append(line);
      if (key !== 'plugInPassAtK') for (const c of s.curves) chart.append(svg('circle', { cx: x(c.k), cy: y(c[key]), r: 2, class: `${className} dot` }));
    }
    root.append(chart);
    const legend = el('p', 'legend');
    legend.append(el('span', 'key at', 'pass@k'), el('span', 'key hat', 'pass^k'), el('span', 'key plugin', 'plug-in pass@k (biased, for comparison)'));
    root.append(legend);
  }

  /** @param {StatsSnapshot} s */
  function drawGrid(s) {
    const root = section('grid');
    if (s.grid.length === 0) return;
    root.append(el('h2', '', 'Samples per task (most passes first)'));
    const grid = el('div', 'grid');
    for (const task of s.grid) {
      const row = el('div', 'grid-row');
      row.title = `${task.file}:${task.lines} — ${task.c}/${task.n} passed${task.localised ? `\n${task.localised}` : ''}`;
      row.append(el('span', 'grid-label', task.label));
      task.outcomes.forEach((outcome, i) => {
        const cell = el('span', `cell ${outcome}`);
        cell.title = `sample ${i + 1}: ${outcome}`;
        cell.setAttribute('aria-label', cell.title);
        row.append(cell);
      });
      grid.append(row);
    }
    root.append(grid);
    const legend = el('p', 'legend');
    for (const outcome of ['pass', 'fail', 'timeout', 'error']) legend.append(el('span', `key-cell ${outcome}`, outcome));
    root.append(legend);
  }

  /** @param {TaskView} task */
  function taskRow(task) {
    const row = el('tr', task.verifiedCount > 0 ? 'clickable' : '');
    const when = new Date(task.startedAt);
    const time = el('td', 'num', `${(task.durationMs / 1000).toFixed(1)} s`);
    time.title = `started ${when.toLocaleString()}`;
    // The file name and lines, not the folders, fit a narrow view; the whole path is on hover.
    const where = el('td', 'file', task.label);
    where.title = `${task.file}:${task.lines}, started ${when.toLocaleString()}${task.localised ? `\n${task.localised}` : ''}`;
    row.append(where, el('td', 'num', `${task.c}/${task.n}`), time, el('td', '', task.outcome));
    if (task.verifiedCount > 0) {
      row.tabIndex = 0;
      row.title = 'Show the verified candidates of this task';
      const open = () => send({ type: 'openTask', taskId: task.taskId });
      row.addEventListener('click', open);
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') open();
      });
    } else {
      row.title = 'No verified candidate to show: none of this task\'s candidates passed every run';
    }
    return row;
  }

  /** The running request's row: above the finished tasks, which stay as they were. */
  function runningRow() {
    const row = el('tr', 'running');
    if (!running) return row;
    const where = el('td', 'file', running.location.split('/').pop() ?? running.location);
    where.title = running.location;
    row.append(where, el('td', 'num', `${running.tested}/${running.total}`), el('td', 'num', '…'), el('td', '', 'running'));
    return row;
  }

  /** @param {StatsSnapshot} s */
  function drawTasks(s) {
    const root = section('tasks');
    if (s.table.length === 0 && !running) return;
    root.append(el('h2', '', 'Tasks'));
    const table = el('table', 'tasks');
    const head = el('tr');
    for (const title of ['task', 'c/n', 'time', 'outcome']) head.append(el('th', '', title));
    table.append(head);
    if (running) table.append(runningRow());
    for (const task of s.table) table.append(taskRow(task));
    root.append(table);
    if (s.table.some((t) => t.verifiedCount > 0)) {
      root.append(el('p', 'muted', s.table.every((t) => t.verifiedCount > 0) ? 'Click a task to look at its verified fixes again.' : 'Click a task with verified fixes to look at them again; the others have none to show.'));
    }
  }

  /** @param {StatsSnapshot} s */
  function drawCost(s) {
    const root = section('cost');
    if (!s.cost) return;
    const tokens = s.cost.tokensPerFix !== undefined ? `, ${Math.round(s.cost.tokensPerFix).toLocaleString()} tokens` : '';
    root.append(el('p', 'muted', `Per verified fix: ${s.cost.secondsPerFix.toFixed(1)} s${tokens} (${s.cost.verifiedFixes} fix${s.cost.verifiedFixes === 1 ? '' : 'es'}).`));
    if (s.cost.weakFixes > 0) {
      const share = Math.round((100 * s.cost.weakFixes) / s.cost.verifiedFixes);
      root.append(el('p', 'muted', `Weak tests: ${s.cost.weakFixes} of ${s.cost.verifiedFixes} verified fixes (${share}%) had variants the tests also accept; their tasks say "weak tests".`));
    }
  }

  /** @param {StatsSnapshot} s */
  function draw(s) {
    last = s;
    drawSummary(s);
    drawChart(s);
    drawGrid(s);
    drawTasks(s);
    drawCost(s);
  }

  /** @param {import('../src/shared/protocol').ProtectionsView} p */
  function drawProtections(p) {
    const root = section('protections');
    root.append(el('h2', '', 'Protections'));
    const list = el('ul', p.hint ? 'protections warning' : 'protections');
    list.title = p.source === 'detected' ? 'Found by a trial run before any request; each request reports its own.' : 'As the last request on this machine reported them.';
    for (const part of p.lines) {
      const item = el('li');
      item.append(el('span', 'label', `${part.label}: `), document.createTextNode(part.text.replace(/^(network|memory): /, '')));
      list.append(item);
    }
    root.append(list);
    if (p.hint) root.append(el('p', 'muted', `To protect more: ${p.hint}.`));
    const link = el('a', 'link', 'How each protection works (security page)');
    link.setAttribute('href', '#');
    link.addEventListener('click', (event) => {
      event.preventDefault();
      send({ type: 'openSecurity' });
    });
    const para = el('p');
    para.append(link);
    root.append(para);
  }

  window.addEventListener('message', (event) => {
    /** @type {HostMessage} */
    const message = event.data;
    switch (message.type) {
      case 'snapshot':
        draw(message.snapshot);
        break;
      case 'protections':
        drawProtections(message.protections);
        break;
      case 'progress': {
        const line = /** @type {HTMLElement} */ (document.getElementById('progress'));
        line.hidden = message.text === undefined;
        line.textContent = message.text ?? '';
        running = message.running;
        // The whole table again from the last snapshot: every finished task stays listed while one runs.
        if (last) drawTasks(last);
        break;
      }
      default: {
        /** @type {never} */
        const unknown = message;
        console.warn('unknown message', unknown);
      }
    }
  });

  send({ type: 'ready' });
})();
