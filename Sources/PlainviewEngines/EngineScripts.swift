// JavaScript both engine drivers run in the pages: one place for how a user's tap finds its element.
enum EngineScripts {
    /// Finds what the user taps in the frame's DOM and clicks it (a real click, carrying the gesture): a link by its
    /// href, else by its text; a button by its label; a form by its action or its submit button's text; a script
    /// handler (an `onclick`).
    static let tap = """
        function(kind, url, text, point) {
          var loose = function(s) { return (s || '').toLowerCase().replace(/\\s+/g, ' ').trim(); };
          var want = loose(text), el = null, list = function(q) { return Array.prototype.slice.call(document.querySelectorAll(q)); };
          if (kind === 'link') {
            var links = list('a[href], area[href]');
            el = links.find(function(a) { return a.href === url; })
              || (want ? links.find(function(a) { return loose(a.textContent).indexOf(want) >= 0; }) : null);
          } else if (kind === 'button') {
            var all = list('button, input[type=submit], input[type=button], input[type=image]');
            var label = function(b) { return loose(b.value || b.textContent || b.alt); };
            el = all.find(function(b) { return label(b) === want; }) || all.find(function(b) { return want && label(b).indexOf(want) >= 0; }) || null;
          } else if (kind === 'form') {
            var buttons = 'button:not([type=button]):not([type=reset]), input[type=submit], input[type=image]';
            var form = Array.prototype.slice.call(document.forms).find(function(f) { return f.action === url; });
            if (want) {
              el = list(buttons).find(function(b) { return loose(b.value || b.textContent) === want; }) || null;
            }
            if (!el && form) {
              el = form.querySelector(buttons);
              if (!el) { if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); } return true; }
            }
          } else {
            var handlers = list('[onclick]');
            var labelled = list('button, input[type=button], input[type=submit], a, [role=button]');
            el = (want ? handlers.find(function(e) { return loose(e.textContent).indexOf(want) >= 0; }) : null)
              || (want ? labelled.find(function(e) { return loose(e.value || e.textContent).indexOf(want) >= 0; }) : null)
              || handlers.find(function(e) { return (e.getAttribute('onclick') || '').indexOf(url) >= 0; })
              || handlers[0] || document.body;
          }
          if (!el) { return false; }
          if (point && el !== document.body) {
            // The element's centre on screen, for a real click (a synthetic one carries no user activation).
            el.scrollIntoView({block: 'center', inline: 'center'});
            var r = el.getBoundingClientRect();
            if (r.width > 0 && r.height > 0) { return {x: r.left + r.width / 2, y: r.top + r.height / 2}; }
          }
          el.click();
          return true;
        }
        """

    /// Types `text` into the form field named `field` (its `name` attribute, as the model finds it): focuses it,
    /// sets its value through the element's own setter (so frameworks that watch it see the change), and fires
    /// `input` and `change` as typing does. False when the page has no such field.
    static let type = """
        function(field, text) {
          var el = Array.prototype.slice.call(document.querySelectorAll('input, textarea, select'))
            .find(function(e) { return e.name === field; });
          if (!el) { return false; }
          if (el.focus) { el.focus(); }
          var proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype
            : el.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
          Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, text);
          el.dispatchEvent(new Event('input', {bubbles: true}));
          el.dispatchEvent(new Event('change', {bubbles: true}));
          return true;
        }
        """
}
