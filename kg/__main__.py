from kg.cli import main

main()
