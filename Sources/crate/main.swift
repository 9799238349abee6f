import CrateCLI

CrateCommand.main()
