/* report.js -- the script of cg_annotate --html pages: sorting, filtering and paging of the tables, from the data in the page. */
/* Copyright (C) 2026 the cachegrind-ng developers.  SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page is complete without this script: it only re-renders the
 * File:function and Function:file tables from their data (JSON in
 * <script type="application/json" id="cg-tN">: [name, file, line, values,
 * inner entries, and, where the cumulative share of a derived count is
 * shown, the group's recorded counts]) when a column heading is clicked,
 * the filter is typed
 * in, or more rows are asked for.  The numbers are formatted as the page's
 * own (and the text report's): thousands separators, ratios with three
 * decimals, percentages rounded as C's printf("%.1f") rounds them.
 *
 * The location's fragment drives it too, for links and tests:
 *   #sort=KEY[:asc]&filter=TEXT&rows=N|all
 * KEY is "name", an event ("Ir"), or in a diff EVENT.old, .new, .delta,
 * .change.  Errors are shown in the page (#cg-errors), never hidden.
 */
(function () {
  'use strict';
  var errors = document.getElementById('cg-errors');
  function fail(msg) {
    errors.hidden = false;
    errors.textContent += msg + '\n';
  }
  window.addEventListener('error', function (e) {
    fail('error: ' + e.message + ' (line ' + e.lineno + ')');
  });

  function parse(id) {
    return JSON.parse(document.getElementById(id).textContent);
  }
  var meta = parse('cg-meta');
  var nev = meta.events.length;

  /* ---- formatting ---- */
  function commas(v) {
    var s = String(Math.abs(v)), out = '';
    while (s.length > 3) {
      out = ',' + s.slice(s.length - 3) + out;
      s = s.slice(0, s.length - 3);
    }
    return (v < 0 ? '-' : '') + s + out;
  }
  function count(k, v) {
    if (v === null) return 'n/a';
    if (!meta.ratio[k]) return commas(v);
    var a = Math.abs(v), f = String(a % 1000);
    return (v < 0 ? '-' : '') + commas(Math.floor(a / 1000)) + '.' + '000'.slice(f.length) + f;
  }
  /* printf("%.1f", x): ties (x * 4 an odd integer) to even, as glibc. */
  function fix1(x) {
    var neg = x < 0 || Object.is(x, -0), a = Math.abs(x), q = a * 4, s;
    if (Number.isInteger(q) && q % 2 === 1) {
      var n = Math.floor(a * 10);
      if (n % 2 === 1) n += 1;
      s = String(Math.floor(n / 10)) + '.' + String(n % 10);
    } else {
      s = a.toFixed(1);
    }
    return (neg ? '-' : '') + s;
  }
  function pct(v, s) {
    return s === 0 ? 'n/a' : fix1(v * 100 / s) + '%';
  }
  /* The change column of a diff (cgp_gate_cells): a ratio without an old
   * value counts as 0 there, as in its delta. */
  function change(o, d) {
    if (o === null) o = 0;
    if (d === null) return 'n/a';
    if (o === 0) return d ? 'new' : '';
    if (d === 0) return '0.0%';
    var x = d * 100 / Math.abs(o);
    return (x >= 0 ? '+' : '') + fix1(x) + '%';
  }
  function changeValue(o, d) {
    if (o === null) o = 0;
    if (d === null) return null;
    if (o === 0) return d > 0 ? Infinity : d < 0 ? -Infinity : 0;
    return d / Math.abs(o);
  }
  /* A derived count (meta.code[k], postfix: cgp_derive_code_json) of the
   * recorded counts rec, in exact integers, as the C computes it. */
  function derived(code, rec) {
    var st = [];
    code.forEach(function (x) {
      var b;
      switch (x[0]) {
      case 'c': st.push(BigInt(x[1])); break;
      case 'e': st.push(BigInt(rec[x[1]])); break;
      case 'n': st.push(-st.pop()); break;
      case '+': b = st.pop(); st.push(st.pop() + b); break;
      case '-': b = st.pop(); st.push(st.pop() - b); break;
      case '*': b = st.pop(); st.push(st.pop() * b); break;
      default: throw new Error('formula: no ' + x[0] + ' in a count');  /* ratios have no shares */
      }
    });
    return Number(st[0]);
  }

  /* ---- DOM ---- */
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  /* A name: bytes that were not UTF-8 (\udcXX in the data) and control
   * characters shown as marked \xNN, as the page shows them. */
  var odd = /[\u0000-\u0008\u000a-\u001f\u007f]|[\udc80-\udcff]/gu;
  function nameInto(parent, s) {
    var last = 0, m;
    odd.lastIndex = 0;
    while ((m = odd.exec(s)) !== null) {
      if (m.index > last) parent.appendChild(document.createTextNode(s.slice(last, m.index)));
      var c = m[0].charCodeAt(0) & 0xff;
      parent.appendChild(el('span', 'x', '\\x' + (c < 16 ? '0' : '') + c.toString(16)));
      last = m.index + m[0].length;
    }
    if (last < s.length) parent.appendChild(document.createTextNode(s.slice(last)));
  }
  /* A name as the page shows it, in text: what the filter also searches,
   * so that what is typed as seen (caf\xe9) finds it. */
  function shownName(s) {
    return s.replace(odd, function (m) {
      var c = m.charCodeAt(0) & 0xff;
      return '\\x' + (c < 16 ? '0' : '') + c.toString(16);
    });
  }
  function matches(name, f) {
    return name.toLowerCase().indexOf(f) >= 0 || shownName(name).toLowerCase().indexOf(f) >= 0;
  }
  function nameCell(tr, row) {
    var td = el('td', 'nm'), target = td;
    if (row[1] >= 0) {
      target = el('a');
      target.href = '#f' + row[1] + (row[2] > 0 ? '-l' + row[2] : '');
      td.appendChild(target);
    }
    nameInto(target, row[0]);
    tr.appendChild(td);
  }
  function plainCells(tr, vals, cum, inner) {
    for (var k = 0; k < nev; k++) {
      var td = el('td', '', count(k, vals[k])), v = vals[k], s = meta.total[k];
      if (meta.percs && !meta.ratio[k] && (!inner || v !== 0)) {
        td.appendChild(el('span', 'p', pct(v, s)));
        if (cum) td.appendChild(el('span', 'c', pct(cum[k], s)));
      }
      tr.appendChild(td);
    }
  }
  function diffCells(tr, vals) {
    for (var k = 0; k < nev; k++) {
      var o = vals[3 * k], n = vals[3 * k + 1], d = vals[3 * k + 2];
      var cls = d === null || d === 0 ? '' : d > 0 ? 'up' : 'dn';
      tr.appendChild(el('td', 'od', count(k, o)));
      tr.appendChild(el('td', '', count(k, n)));
      tr.appendChild(el('td', cls, d !== null && d > 0 ? '+' + count(k, d) : count(k, d)));
      tr.appendChild(el('td', cls, change(o, d)));
    }
  }
  function row(cls, r, cum, inner) {
    var tr = el('tr', cls);
    nameCell(tr, r);
    if (meta.diff) diffCells(tr, r[3]);
    else plainCells(tr, r[3], cum, inner);
    return tr;
  }

  /* ---- tables ---- */
  function Table(table) {
    this.table = table;
    this.id = table.getAttribute('data-t');
    this.groups = null;
    this.key = null;
    this.asc = false;
    this.filter = '';
    this.limit = meta.page;
    this.conts = [];
    this.controls();
  }
  Table.prototype.data = function () {
    if (!this.groups) {
      this.groups = parse('cg-t' + this.id);
      this.groups.forEach(function (g, i) {
        g.at = i;
        g[4].forEach(function (r, j) { r.at = j; });
      });
    }
    return this.groups;
  };
  Table.prototype.controls = function () {
    var self = this, box = el('div', 'ctl');
    this.input = el('input');
    this.input.type = 'search';
    this.input.placeholder = 'filter by name';
    this.input.setAttribute('aria-label', 'filter by name');
    this.input.addEventListener('input', function () {
      self.filter = self.input.value;
      self.limit = meta.page;
      self.render();
    });
    this.status = el('span', 'st');
    this.moreButton = el('button', 'more-btn', 'show more');
    this.moreButton.hidden = true;
    this.moreButton.addEventListener('click', function () {
      self.limit += meta.page;
      self.render();
    });
    box.appendChild(this.input);
    box.appendChild(this.status);
    var wrap = this.table.parentNode;
    wrap.parentNode.insertBefore(box, wrap);
    wrap.parentNode.insertBefore(this.moreButton, wrap.nextSibling);
    var old = wrap.parentNode.querySelector('p.more');
    if (old) old.hidden = true;
    Array.prototype.forEach.call(this.table.querySelectorAll('th[data-k]'), function (th) {
      function go() {
        var k = th.getAttribute('data-k');
        self.sort(k, self.key === k ? !self.asc : k === 'name');
      }
      /* Reached with Tab, pressed with Enter or the space bar. */
      th.tabIndex = 0;
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          go();
        }
      });
    });
    var n = Number(this.table.getAttribute('data-n')), shown = this.table.tBodies.length;
    var rows = this.table.querySelectorAll('tbody tr').length;
    var all = Number(this.table.getAttribute('data-rows'));
    this.status.textContent = shown < n ? 'showing ' + shown + ' of ' + n : n + ' in all';
    if (rows < all) this.status.textContent += ' (' + rows + ' of ' + all + ' rows)';
    if (rows < all) this.moreButton.hidden = false;
  };
  /* The sort value of an entry for key k. */
  Table.prototype.value = function (r, k) {
    if (k === 'name') return r[0];
    if (k.charAt(0) === 'c') {
      var e = Number(k.slice(1));
      return changeValue(r[3][3 * e], r[3][3 * e + 2]);
    }
    return r[3][Number(k)];
  };
  Table.prototype.sort = function (k, asc) {
    var self = this;
    this.key = k;
    this.asc = asc;
    function cmp(x, y) {
      var a = self.value(x, k), b = self.value(y, k), c;
      if (a === b) c = 0;
      else if (a === null) c = -1;
      else if (b === null) c = 1;
      else c = a < b ? -1 : 1;
      return asc ? c : -c;
    }
    var groups = this.data();
    groups.sort(function (x, y) { return (k !== null && cmp(x, y)) || x.at - y.at; });
    groups.forEach(function (g) {
      g[4].sort(function (x, y) { return (k !== null && cmp(x, y)) || x.at - y.at; });
    });
    Array.prototype.forEach.call(this.table.querySelectorAll('th[data-k]'), function (th) {
      var on = k !== null && th.getAttribute('data-k') === k;
      th.className = on ? (asc ? 'asc' : 'desc') : '';
      if (on) th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
    });
    this.render();
  };
  /* Takes the rows of the previous render out of the page. */
  Table.prototype.clear = function () {
    var t = this.table;
    Array.prototype.slice.call(t.tBodies).forEach(function (b) { t.removeChild(b); });
    if (t.tFoot) t.removeChild(t.tFoot);
    this.conts.forEach(function (box) { box.parentNode.removeChild(box); });
    this.conts = [];
  };
  Table.prototype.render = function () {
    var f = this.filter.toLowerCase(), groups = this.data(), t = this.table;
    var cum = new Array(nev).fill(0), rows = 0, shown = 0, matching = 0, all = 0;
    var rec = meta.code ? new Array(meta.nrec).fill(0) : null;
    /* A page of rows per part: the first in the table, each other in a
     * table of its own (rest()); a group larger than what is left of
     * the limit is cut short, and one larger than a page goes on in the
     * next part. */
    var parts = [{ frag: document.createDocumentFragment(), rows: 0 }], part = parts[0];
    function room() {
      if (part.rows >= meta.page) {
        part = { frag: document.createDocumentFragment(), rows: 0 };
        parts.push(part);
      }
    }
    this.clear();
    for (var i = 0; i < groups.length; i++) {
      var g = groups[i], inner = g[4];
      if (f && !matches(g[0], f)) {
        inner = inner.filter(function (r) { return matches(r[0], f); });
        if (!inner.length) continue;
      }
      matching++;
      all += 1 + inner.length;
      if (!meta.diff) {
        var k, j;
        if (rec) for (j = 0; j < meta.nrec; j++) rec[j] += g[5][j];
        for (k = 0; k < nev; k++)
          cum[k] = rec && meta.code[k] ? derived(meta.code[k], rec) : cum[k] + g[3][k];
      }
      if (rows >= this.limit) continue;
      room();
      var body = el('tbody');
      body.appendChild(row('o', g, cum.slice(), false));
      part.rows++;
      rows++;
      for (var n = 0; n < inner.length && rows < this.limit; n++) {
        if (part.rows >= meta.page) {
          part.frag.appendChild(body);
          body = el('tbody');
          room();
        }
        body.appendChild(row('i', inner[n], null, true));
        part.rows++;
        rows++;
      }
      part.frag.appendChild(body);
      shown++;
    }
    t.appendChild(parts[0].frag);
    if (parts.length > 1) this.rest(parts);
    this.status.textContent = 'showing ' + shown + ' of ' + matching +
      (f ? ' matching' : '') + (matching !== groups.length ? ' (' + groups.length + ' in all)' : '') +
      (rows < all && shown >= matching ? ' (' + rows + ' of ' + all + ' rows)' : '');
    this.moreButton.hidden = rows >= all;
  };
  /* The pages after the first, each in a table of its own after the
   * table, in a box that the browser lays out only when it is scrolled
   * into view (content-visibility): a table is laid out as a whole, and
   * tens of thousands of rows in one would take minutes.  The tables share
   * the columns' widths: the table gets a hidden row (visibility: collapse
   * keeps its widths) of the widest cells of all the rows, its columns are
   * measured, and the other tables take them (table-layout: fixed). */
  Table.prototype.rest = function (parts) {
    var t = this.table, widest = [], p, c;
    for (p = 1; p < parts.length; p++) {
      Array.prototype.forEach.call(parts[p].frag.querySelectorAll('tr'), function (tr) {
        for (c = 0; c < tr.cells.length; c++) {
          var len = tr.cells[c].textContent.length;
          if (!widest[c] || len > widest[c].len) widest[c] = { len: len, cell: tr.cells[c] };
        }
      });
    }
    var foot = el('tfoot', 'sz'), tr = el('tr', 'o');
    widest.forEach(function (w) { tr.appendChild(w.cell.cloneNode(true)); });
    foot.appendChild(tr);
    t.appendChild(foot);
    var ths = t.tHead.rows[0].cells, box = t.getBoundingClientRect(), widths = [];
    for (c = 0; c < ths.length; c++) widths.push(ths[c].getBoundingClientRect().width);
    var rowHeight = (box.height - t.tHead.getBoundingClientRect().height) / Math.max(parts[0].rows, 1);
    for (p = 1; p < parts.length; p++) {
      var cv = el('div', 'cv'), tab = el('table', 't tc'), cols = el('colgroup');
      tab.setAttribute('data-c', this.id);
      tab.style.width = box.width + 'px';
      widths.forEach(function (w) {
        var col = el('col');
        col.style.width = w + 'px';
        cols.appendChild(col);
      });
      tab.appendChild(cols);
      tab.appendChild(parts[p].frag);
      cv.style.containIntrinsicSize = 'auto ' + Math.ceil(rowHeight * parts[p].rows) + 'px';
      cv.appendChild(tab);
      t.parentNode.appendChild(cv);
      this.conts.push(cv);
    }
  };

  var tables = Array.prototype.map.call(document.querySelectorAll('table[data-t]'),
                                        function (t) { return new Table(t); });

  /* ---- the fragment ---- */
  function sortKey(name) {
    if (name === 'name') return 'name';
    var dot = name.lastIndexOf('.'), part = meta.diff ? 'delta' : '', ev = name;
    if (meta.diff && dot > 0 && ['old', 'new', 'delta', 'change'].indexOf(name.slice(dot + 1)) >= 0) {
      ev = name.slice(0, dot);
      part = name.slice(dot + 1);
    }
    var e = meta.events.indexOf(ev);
    if (e < 0) {
      fail('#sort: no event ' + JSON.stringify(ev) + ' is shown');
      return null;
    }
    if (!meta.diff) return String(e);
    if (part === 'change') return 'c' + e;
    return String(3 * e + ['old', 'new', 'delta'].indexOf(part));
  }
  /* The state the fragment gives: what it does not name is the default
   * (no filter, a page of rows, the report's order), so that a link, or
   * Back, shows the same tables whatever was shown before.  Each value is
   * decoded on its own, after the split: '&' in a name is %26. */
  function fromHash(first) {
    var h = location.hash.slice(1);
    var line = /^f(\d+)-l\d+$/.exec(h);
    if (line && !document.getElementById(h)) {
      var sec = document.getElementById('f' + line[1]);
      if (sec) sec.scrollIntoView();
      return;
    }
    var args = {}, any = false;
    h.split('&').forEach(function (kv) {
      var eq = kv.indexOf('='), k = kv.slice(0, eq), v = kv.slice(eq + 1);
      if (eq <= 0 || ['sort', 'filter', 'rows'].indexOf(k) < 0) return;
      try {
        v = decodeURIComponent(v);
      } catch (e) {
        /* A malformed escape (#filter=%): the value as it is. */
      }
      args[k] = v;
      any = true;
    });
    /* A fragment that is a place in the page (a section, a line) leaves
     * the tables as they are, and so does going back to no fragment from
     * one (sorting and filtering by hand do not change the fragment);
     * the page as loaded needs no render. */
    var was = stateShown;
    stateShown = any;
    if (!any && (h !== '' || first === true || !was)) return;
    tables.forEach(function (t) {
      t.filter = args.filter !== undefined ? args.filter : '';
      t.input.value = t.filter;
      t.limit = !args.rows ? meta.page : args.rows === 'all' ? Infinity : Number(args.rows) || meta.page;
    });
    var k = null, asc = false;
    if (args.sort) {
      var spec = args.sort.split(':');
      k = sortKey(spec[0]);
      asc = spec[1] === 'asc';
    }
    tables.forEach(function (t) { t.sort(k, asc); });
  }
  var stateShown = false;   /* whether the last fragment set the tables */
  window.addEventListener('hashchange', fromHash);
  fromHash(true);
  document.body.setAttribute('data-js', 'ready');
})();
