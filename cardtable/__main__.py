from cardtable.cli.main import main

main()
