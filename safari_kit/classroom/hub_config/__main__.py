"""``python -m safari_kit.classroom.hub_config``: print where the kit's jupyterhub_config.py is."""
from safari_kit.classroom.hub_config import CONFIG

print(CONFIG)
