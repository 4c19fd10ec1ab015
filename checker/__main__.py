from checker.face.cli import run

if __name__ == "__main__":  # guarded: spawned workers re-import the main module
    run()
