"""Arena's desktop shell (pygame-ce + pygame_gui): scenes on a stack, one frame loop.

Importing the package has no side effects; :func:`ui.app.run_app` opens the window.
"""
