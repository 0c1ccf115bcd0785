"""Each player's phone at the table: a small page served by the Pi on the local network, one
link per player (an unguessable token for that game only), following the game live and answering
that player's Diplomacy bonus. No Kivy here: the table app hands in what the game looks like
(`snapshot.Snapshot`) and runs the phones' answers through its one door for commands
(docs/phones.md).

    hub = PhoneHub(Links.open(data_folder), run_answer)  # run_answer: on the table's thread
    hub.follow(stored_game, options)               # after every step, on the table's thread
    server = PhoneServer(hub, port=8080).start()   # its own threads; server.stop()
"""
