"""The shell: the App, the session (the one door for commands), the routes between screens
and the button panel's bridge. It imports the areas below it only through the routes table."""
