#!/usr/bin/python3
"""
A WebKitGTK browser whose windows hold nothing but the page, for WebKitWebDriver (webkit-engine.ts):
MiniBrowser keeps its windows at least 447 px wide, and a phone's viewport is 390. Each window the driver
opens has a profile of its own, kept in memory: nothing stored or cached is shared. Debian's Python, for
its gi bindings (python3-gi, gir1.2-webkit2-4.1).

  webkit-window.py --automation --data-folder=DIR [--size=390x844] [--no-javascript] [--init-script=FILE] [--dark]

--dark asks GTK for its dark theme, which WebKitGTK tells pages as `prefers-color-scheme: dark`.
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402

width, height, javascript, init_script, folder = 390, 844, True, None, None
for arg in sys.argv[1:]:
    if arg.startswith("--size="):
        width, height = (int(n) for n in arg[len("--size="):].split("x"))
    elif arg.startswith("--data-folder="):
        folder = arg[len("--data-folder="):]
    elif arg == "--no-javascript":
        javascript = False
    elif arg.startswith("--init-script="):
        with open(arg[len("--init-script="):], encoding="utf-8") as source:
            init_script = source.read()
    elif arg == "--dark":
        Gtk.Settings.get_default().set_property("gtk-application-prefer-dark-theme", True)

# Every view is ephemeral, with website data of its own; the context's own folders, unused, are the
# caller's to remove.
context = WebKit2.WebContext(
    website_data_manager=WebKit2.WebsiteDataManager(base_data_directory=folder, base_cache_directory=folder)
)
context.set_automation_allowed(True)


def create_web_view(_session):
    content = WebKit2.UserContentManager()
    if init_script:
        content.add_script(
            WebKit2.UserScript.new(
                init_script,
                WebKit2.UserContentInjectedFrames.TOP_FRAME,
                WebKit2.UserScriptInjectionTime.START,
                None,
                None,
            )
        )
    # Without JavaScript for the page's own scripts; the driver's scripts still run.
    settings = WebKit2.Settings(enable_javascript_markup=javascript)
    view = WebKit2.WebView(
        web_context=context,
        user_content_manager=content,
        settings=settings,
        is_controlled_by_automation=True,
        is_ephemeral=True,
    )
    window = Gtk.Window()
    window.set_default_size(width, height)
    window.set_resizable(False)
    window.add(view)
    view.connect("close", lambda _view: window.destroy())
    window.show_all()
    return view


def on_automation_started(_context, session):
    info = WebKit2.ApplicationInfo()
    info.set_name("mandje-webkit-window")
    session.set_application_info(info)
    session.connect("create-web-view", create_web_view)


context.connect("automation-started", on_automation_started)
Gtk.main()
